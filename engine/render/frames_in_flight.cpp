#include "render/frames_in_flight.h"

#include <fmt/format.h>

#include "vk/command_buffers.h"
#include "vk/context.h"
#include "vk/gpu_wait.h"
#include "vk/vk_check.h"

namespace vksim {

FramesInFlight::FramesInFlight(const VulkanContext& ctx, uint32_t count) : ctx_(ctx), slots_(count) {
    const std::vector<VkCommandBuffer> commands =
        allocateCommandBuffers(ctx, VK_COMMAND_BUFFER_LEVEL_PRIMARY, count, "window frame");
    for (uint32_t i = 0; i < count; ++i) {
        FrameSlot& slot = slots_[i];
        slot.commands = commands[i];

        VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        fenceInfo.flags = VK_FENCE_CREATE_SIGNALED_BIT;
        VK_CHECK(vkCreateFence(ctx.device(), &fenceInfo, nullptr, &slot.done));
        ctx.setName(slot.done, VK_OBJECT_TYPE_FENCE, fmt::format("window frame {} done", i));

        VkSemaphoreCreateInfo semaphoreInfo{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VK_CHECK(vkCreateSemaphore(ctx.device(), &semaphoreInfo, nullptr, &slot.imageAcquired));
        ctx.setName(slot.imageAcquired, VK_OBJECT_TYPE_SEMAPHORE, fmt::format("window frame {} image acquired", i));
    }
}

FramesInFlight::~FramesInFlight() {
    ctx_.waitIdleForTeardown();
    if (gpuAbandoned()) return;  // the GPU may still run the frames: leaked (gpu_wait.h)
    for (FrameSlot& slot : slots_) {
        vkDestroySemaphore(ctx_.device(), slot.imageAcquired, nullptr);
        vkDestroyFence(ctx_.device(), slot.done, nullptr);
        freeCommandBuffers(ctx_, {&slot.commands, 1});
    }
}

}  // namespace vksim
