#pragma once
// Command buffers from the context's pool, one per frame slot, each named
// "<name> <slot>" for the validation layer and debuggers. The headless frame
// loop, the window's frames in flight and a World's recorded frames each
// keep one per slot and free them with freeCommandBuffers.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <volk.h>

namespace vksim {

class VulkanContext;

std::vector<VkCommandBuffer> allocateCommandBuffers(const VulkanContext& ctx, VkCommandBufferLevel level,
                                                    uint32_t count, std::string_view name);

void freeCommandBuffers(const VulkanContext& ctx, std::span<const VkCommandBuffer> buffers);

}  // namespace vksim
