#pragma once
// Whether a scene fits a device, estimated from the scene description alone,
// before a model is built or a buffer allocated: a 4096x4096 cloth must be
// refused at once with the key to lower, not after minutes of building and
// gigabytes of host memory, ending in bad_alloc or a dispatch-limit error.
// World checks every scene with it; the bench checks each size it runs.
//
// The byte counts are per-particle estimates of every GPU buffer of a solver
// (device_footprint.cpp says what they count), rounded up: a scene near a
// limit may be refused although it would just fit.
#include <cstdint>
#include <optional>
#include <string>

#include "scene/scene.h"

namespace vksim {

// What vksim may use of a device (world/device_limits.h reads them).
struct DeviceLimits {
    uint64_t usableMemoryBytes = 0;        // a share of the largest device-local heap
    uint64_t heapBytes = 0;                // that heap, for messages
    uint64_t maxStorageBufferRange = 0;    // the largest buffer a shader may bind
};

// A limit the scene passes: `key` is the JSON pointer of the value to lower
// ("/objects/0/resolution"; empty for scenes built in code), `problem` says
// what it needs and what the device has.
struct FootprintProblem {
    std::string key;
    std::string problem;
};

// The first limit (device memory, then maxStorageBufferRange) that `scene`
// passes, or nullopt. The workgroup count is no limit: ComputeKernel splits
// a dispatch past maxComputeWorkGroupCount[0].
std::optional<FootprintProblem> checkDeviceFootprint(const Scene& scene, const DeviceLimits& limits);

}  // namespace vksim
