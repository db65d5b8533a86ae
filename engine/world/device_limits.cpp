#include "world/device_limits.h"

#include <algorithm>

#include <fmt/format.h>

#include "scene/scene_loader.h"
#include "vk/context.h"

namespace vksim {

DeviceLimits deviceLimits(const VulkanContext& ctx) {
    VkPhysicalDeviceMemoryProperties memory{};
    vkGetPhysicalDeviceMemoryProperties(ctx.physicalDevice(), &memory);
    uint64_t largestHeap = 0;
    for (uint32_t i = 0; i < memory.memoryHeapCount; ++i)
        if (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            largestHeap = std::max<uint64_t>(largestHeap, memory.memoryHeaps[i].size);
    const VkPhysicalDeviceLimits& limits = ctx.properties().limits;
    return DeviceLimits{
        .usableMemoryBytes = static_cast<uint64_t>(kUsableHeapShare * static_cast<double>(largestHeap)),
        .heapBytes = largestHeap,
        .maxStorageBufferRange = limits.maxStorageBufferRange,
    };
}

void requireFitsDevice(const VulkanContext& ctx, const Scene& scene) {
    if (auto problem = checkDeviceFootprint(scene, deviceLimits(ctx)))
        throw SceneError(fmt::format("{}: {}: {}", scene.path, problem->key, problem->problem));
}

}  // namespace vksim
