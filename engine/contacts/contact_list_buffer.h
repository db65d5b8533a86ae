#pragma once
// The buffers the contact detection writes its lists and counts into: the
// pairs' (contact_detection.cpp) and the four-particle detection's
// (triangle_detection.cpp, edge_detection.cpp) alike.
#include <algorithm>
#include <cstdint>
#include <string>

#include "vk/buffer.h"

namespace vksim {

class VulkanContext;

// `count` uints (at least 16 bytes: Vulkan has no empty buffer), on the
// device and readable by a copy (the tests, the stats).
inline GpuBuffer contactListBuffer(const VulkanContext& ctx, uint64_t count, const std::string& name) {
    return GpuBuffer(ctx, std::max<VkDeviceSize>(16, count * sizeof(uint32_t)),
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind::DeviceLocal,
                     name);
}

}  // namespace vksim
