#pragma once
// What each frame in flight owns while the GPU works on it: its command
// buffer, the fence that says the GPU is done with it, and the semaphore its
// swapchain image acquisition signals. The host records frame N+1 into one
// slot while the GPU still runs frame N from the other.
#include <vector>

#include <volk.h>

namespace vksim {

class VulkanContext;

struct FrameSlot {
    VkCommandBuffer commands = VK_NULL_HANDLE;
    VkFence done = VK_NULL_HANDLE;               // created signalled: the first wait returns at once
    VkSemaphore imageAcquired = VK_NULL_HANDLE;  // acquire signals, the frame's submission waits
};

class FramesInFlight {
public:
    FramesInFlight(const VulkanContext& ctx, uint32_t count);
    ~FramesInFlight();  // waits for the device to idle first
    FramesInFlight(const FramesInFlight&) = delete;
    FramesInFlight& operator=(const FramesInFlight&) = delete;

    uint32_t count() const { return static_cast<uint32_t>(slots_.size()); }
    const FrameSlot& operator[](uint32_t slot) const { return slots_.at(slot); }

private:
    const VulkanContext& ctx_;
    std::vector<FrameSlot> slots_;
};

}  // namespace vksim
