#include "frame_loop.h"

#include <array>

#include "app_device.h"

void stepFrames(const AppDevice& device, vksim::World& world, uint32_t frames,
                const std::function<void(VkCommandBuffer)>& lastFrame) {
    const VkDevice vk = device.device();
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = device.queueFamily();
    VkCommandPool pool = VK_NULL_HANDLE;
    check(vkCreateCommandPool(vk, &poolInfo, nullptr, &pool), "vkCreateCommandPool");
    std::array<VkCommandBuffer, kFramesInFlight> commands{};
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = kFramesInFlight;
    check(vkAllocateCommandBuffers(vk, &alloc, commands.data()), "vkAllocateCommandBuffers");
    std::array<VkFence, kFramesInFlight> fences{};
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    fenceInfo.flags = VK_FENCE_CREATE_SIGNALED_BIT;  // no frame in flight yet
    for (VkFence& fence : fences) check(vkCreateFence(vk, &fenceInfo, nullptr, &fence), "vkCreateFence");

    for (uint32_t frame = 0; frame < frames; ++frame) {
        const uint32_t slot = frame % kFramesInFlight;
        check(vkWaitForFences(vk, 1, &fences[slot], VK_TRUE, UINT64_MAX), "vkWaitForFences");
        world.collectTimings(slot);  // the slot's previous frame is done
        check(vkResetFences(vk, 1, &fences[slot]), "vkResetFences");
        VkCommandBuffer cmd = commands[slot];
        check(vkResetCommandBuffer(cmd, 0), "vkResetCommandBuffer");
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
        world.recordFrame(cmd, slot);
        if (frame + 1 == frames) lastFrame(cmd);
        check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cmd;
        check(vkQueueSubmit(device.queue(), 1, &submit, fences[slot]), "vkQueueSubmit");
    }
    check(vkWaitForFences(vk, kFramesInFlight, fences.data(), VK_TRUE, UINT64_MAX), "vkWaitForFences");
    for (uint32_t i = 0; i < kFramesInFlight; ++i) world.collectTimings((frames + i) % kFramesInFlight);  // oldest first

    for (VkFence fence : fences) vkDestroyFence(vk, fence, nullptr);
    vkDestroyCommandPool(vk, pool, nullptr);
}
