#include "vk/gpu_image.h"

#include <utility>

#include <fmt/format.h>

#include "vk/context.h"
#include "vk/device_memory_count.h"
#include "vk/gpu_wait.h"
#include "vk/vk_check.h"

namespace vksim {

GpuImage::GpuImage(const VulkanContext& ctx, VkExtent2D extent, VkFormat format, VkImageUsageFlags usage,
                   VkImageAspectFlags aspect, const std::string& name)
    : ctx_(&ctx), format_(format), extent_(extent) {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {extent.width, extent.height, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VK_CHECK(vkCreateImage(ctx.device(), &info, nullptr, &image_));
    ctx.setName(image_, VK_OBJECT_TYPE_IMAGE, name);

    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(ctx.device(), image_, &req);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = ctx.findMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    VK_CHECK_FAULT(FaultSite::Alloc, vkAllocateMemory(ctx.device(), &alloc, nullptr, &memory_),
                   fmt::format("allocating image \"{}\" ({})", name, formatBytes(req.size)));
    allocationBytes_ = req.size;
    countDeviceAllocation(allocationBytes_);
    ctx.setName(memory_, VK_OBJECT_TYPE_DEVICE_MEMORY, name + " memory");
    VK_CHECK(vkBindImageMemory(ctx.device(), image_, memory_, 0));

    VkImageViewCreateInfo viewInfo{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    viewInfo.image = image_;
    viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D;
    viewInfo.format = format;
    viewInfo.subresourceRange = {aspect, 0, 1, 0, 1};
    VK_CHECK(vkCreateImageView(ctx.device(), &viewInfo, nullptr, &view_));
    ctx.setName(view_, VK_OBJECT_TYPE_IMAGE_VIEW, name + " view");
}

GpuImage::~GpuImage() { release(); }

GpuImage::GpuImage(GpuImage&& other) noexcept { *this = std::move(other); }

GpuImage& GpuImage::operator=(GpuImage&& other) noexcept {
    if (this != &other) {
        release();
        ctx_ = std::exchange(other.ctx_, nullptr);
        image_ = std::exchange(other.image_, VK_NULL_HANDLE);
        memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
        allocationBytes_ = std::exchange(other.allocationBytes_, 0);
        view_ = std::exchange(other.view_, VK_NULL_HANDLE);
        format_ = std::exchange(other.format_, VK_FORMAT_UNDEFINED);
        extent_ = std::exchange(other.extent_, VkExtent2D{});
    }
    return *this;
}

void GpuImage::release() {
    if (!ctx_) return;
    if (!gpuAbandoned()) {  // else the GPU may still use it: leaked (gpu_wait.h)
        if (view_) vkDestroyImageView(ctx_->device(), view_, nullptr);
        if (image_) vkDestroyImage(ctx_->device(), image_, nullptr);
        if (memory_) {
            vkFreeMemory(ctx_->device(), memory_, nullptr);
            countDeviceFree(allocationBytes_);
        }
    }
    allocationBytes_ = 0;
    view_ = VK_NULL_HANDLE;
    image_ = VK_NULL_HANDLE;
    memory_ = VK_NULL_HANDLE;
    ctx_ = nullptr;
}

}  // namespace vksim
