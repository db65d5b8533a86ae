#pragma once
// The limits of a device that decide whether a scene fits it
// (solvers/device_footprint.h), read from the device.
#include "solvers/device_footprint.h"

namespace vksim {

class VulkanContext;

// vksim keeps its GPU buffers within this share of the largest device-local
// heap: the rest is the driver's, the timer's, the renderer's and the OS's
// (on a CPU device such as lavapipe the heap is the host's memory).
inline constexpr double kUsableHeapShare = 0.5;

DeviceLimits deviceLimits(const VulkanContext& ctx);

// Throws SceneError "<scene file>: <key>: <problem>" when `scene` does not
// fit `ctx`'s device; called before anything is built or allocated.
void requireFitsDevice(const VulkanContext& ctx, const Scene& scene);

}  // namespace vksim
