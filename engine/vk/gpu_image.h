#pragma once
// A 2D VkImage with its own device-local memory and one view, one owner, and
// a debug name. Used for render targets the swapchain does not provide (the
// depth buffer); layouts are the caller's to transition, explicitly.
#include <string>

#include <volk.h>

namespace vksim {

class VulkanContext;

class GpuImage {
public:
    GpuImage() = default;
    GpuImage(const VulkanContext& ctx, VkExtent2D extent, VkFormat format, VkImageUsageFlags usage,
             VkImageAspectFlags aspect, const std::string& name);
    ~GpuImage();
    GpuImage(GpuImage&& other) noexcept;
    GpuImage& operator=(GpuImage&& other) noexcept;
    GpuImage(const GpuImage&) = delete;
    GpuImage& operator=(const GpuImage&) = delete;

    VkImage image() const { return image_; }
    VkImageView view() const { return view_; }
    VkFormat format() const { return format_; }
    VkExtent2D extent() const { return extent_; }
    explicit operator bool() const { return image_ != VK_NULL_HANDLE; }

private:
    void release();

    const VulkanContext* ctx_ = nullptr;
    VkImage image_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkDeviceSize allocationBytes_ = 0;  // of memory_
    VkImageView view_ = VK_NULL_HANDLE;
    VkFormat format_ = VK_FORMAT_UNDEFINED;
    VkExtent2D extent_{};
};

}  // namespace vksim
