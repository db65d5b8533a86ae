#include "vk/command_buffers.h"

#include <fmt/format.h>

#include "vk/context.h"
#include "vk/gpu_wait.h"
#include "vk/vk_check.h"

namespace vksim {

std::vector<VkCommandBuffer> allocateCommandBuffers(const VulkanContext& ctx, VkCommandBufferLevel level,
                                                    uint32_t count, std::string_view name) {
    std::vector<VkCommandBuffer> buffers(count);
    if (count == 0) return buffers;
    const auto lock = ctx.lockQueue();
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = ctx.commandPool();
    alloc.level = level;
    alloc.commandBufferCount = count;
    VK_CHECK(vkAllocateCommandBuffers(ctx.device(), &alloc, buffers.data()));
    for (uint32_t i = 0; i < count; ++i)
        ctx.setName(buffers[i], VK_OBJECT_TYPE_COMMAND_BUFFER, fmt::format("{} {}", name, i));
    return buffers;
}

void freeCommandBuffers(const VulkanContext& ctx, std::span<const VkCommandBuffer> buffers) {
    if (buffers.empty() || gpuAbandoned()) return;  // else the GPU may still run them: leaked (gpu_wait.h)
    const auto lock = ctx.lockQueue();
    vkFreeCommandBuffers(ctx.device(), ctx.commandPool(), static_cast<uint32_t>(buffers.size()), buffers.data());
}

}  // namespace vksim
