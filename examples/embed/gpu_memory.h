#pragma once
// Memory for the example's own images and read-back buffers (vksim allocates
// its own; the application never touches vksim's memory).
#include <cstdint>

#include <volk.h>

class AppDevice;

VkDeviceMemory allocateMemory(const AppDevice& device, VkMemoryRequirements requirements,
                              VkMemoryPropertyFlags properties);

// A host-visible, host-coherent buffer that transfers write into; mapped for
// its whole life.
class HostBuffer {
public:
    HostBuffer(const AppDevice& device, VkDeviceSize size);
    ~HostBuffer();
    HostBuffer(const HostBuffer&) = delete;
    HostBuffer& operator=(const HostBuffer&) = delete;

    VkBuffer handle() const { return buffer_; }
    VkDeviceSize size() const { return size_; }
    const void* data() const { return mapped_; }

private:
    VkDevice device_;
    VkDeviceSize size_;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    void* mapped_ = nullptr;
};

// Makes transfer writes into host buffers visible to the host after the fence.
void recordTransferToHostBarrier(VkCommandBuffer cmd);
