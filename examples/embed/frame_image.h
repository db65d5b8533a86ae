#pragma once
// The offscreen target the example draws into: an RGBA8 colour image, a depth
// image, and a host buffer the colour is copied to for the PNG. Headless: no
// window, no swapchain.
#include <cstdint>
#include <memory>

#include <volk.h>

#include "gpu_memory.h"

class AppDevice;

class FrameImage {
public:
    static constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_UNORM;
    static constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

    FrameImage(const AppDevice& device, VkExtent2D extent);
    ~FrameImage();
    FrameImage(const FrameImage&) = delete;
    FrameImage& operator=(const FrameImage&) = delete;

    // Moves both images to attachment layouts and begins dynamic rendering,
    // cleared to transparent black (alpha 0 marks an uncovered pixel).
    void recordBeginRendering(VkCommandBuffer cmd) const;
    // Ends rendering and copies the colour into the host buffer (the caller
    // records the host barrier).
    void recordEndRenderingAndCopy(VkCommandBuffer cmd) const;

    VkExtent2D extent() const { return extent_; }
    // RGBA8 rows, valid once the submission that copied them has finished.
    const uint8_t* pixels() const { return static_cast<const uint8_t*>(readback_->data()); }

private:
    VkDevice device_;
    VkExtent2D extent_;
    VkImage color_ = VK_NULL_HANDLE;
    VkImage depth_ = VK_NULL_HANDLE;
    VkDeviceMemory colorMemory_ = VK_NULL_HANDLE;
    VkDeviceMemory depthMemory_ = VK_NULL_HANDLE;
    VkImageView colorView_ = VK_NULL_HANDLE;
    VkImageView depthView_ = VK_NULL_HANDLE;
    std::unique_ptr<HostBuffer> readback_;
};
