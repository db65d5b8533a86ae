#include "render/swapchain.h"

#include <algorithm>

#include <fmt/format.h>

#include "vk/context.h"
#include "vk/gpu_wait.h"
#include "vk/vk_check.h"

namespace vksim {
namespace {

// sRGB BGRA8 lets the hardware encode the shader's linear colours; otherwise
// take whatever the surface lists first.
VkSurfaceFormatKHR chooseSurfaceFormat(const VulkanContext& ctx) {
    uint32_t count = 0;
    VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physicalDevice(), ctx.surface(), &count, nullptr));
    std::vector<VkSurfaceFormatKHR> formats(count);
    VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physicalDevice(), ctx.surface(), &count, formats.data()));
    if (formats.empty()) throw VulkanError("the window surface reports no formats");
    for (const VkSurfaceFormatKHR& f : formats)
        if (f.format == VK_FORMAT_B8G8R8A8_SRGB && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) return f;
    return formats.front();
}

void requireDepthFormat(const VulkanContext& ctx, VkFormat format) {
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(ctx.physicalDevice(), format, &props);
    if (!(props.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT))
        throw DeviceError(fmt::format("{} cannot render to a D32_SFLOAT depth buffer", ctx.deviceInfo().name));
}

VkCompositeAlphaFlagBitsKHR chooseCompositeAlpha(VkCompositeAlphaFlagsKHR supported) {
    for (VkCompositeAlphaFlagBitsKHR bit : {VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR,
                                            VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR,
                                            VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR})
        if (supported & bit) return bit;
    return VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
}

const char* presentModeName(VkPresentModeKHR mode) {
    switch (mode) {
        case VK_PRESENT_MODE_IMMEDIATE_KHR: return "immediate";
        case VK_PRESENT_MODE_MAILBOX_KHR: return "mailbox";
        case VK_PRESENT_MODE_FIFO_KHR: return "fifo";
        case VK_PRESENT_MODE_FIFO_RELAXED_KHR: return "fifo-relaxed";
        default: return "other";
    }
}

// FIFO is the one mode every surface must support (vsync on); the others
// are optional, so a surface without the one asked for falls back to FIFO.
VkPresentModeKHR choosePresentMode(const VulkanContext& ctx, VkPresentModeKHR wanted, std::string& notice) {
    uint32_t count = 0;
    VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(ctx.physicalDevice(), ctx.surface(), &count, nullptr));
    std::vector<VkPresentModeKHR> modes(count);
    VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(ctx.physicalDevice(), ctx.surface(), &count, modes.data()));
    if (std::find(modes.begin(), modes.end(), wanted) != modes.end()) return wanted;
    notice = fmt::format("vksim: the window surface has no {} present mode, using fifo", presentModeName(wanted));
    return VK_PRESENT_MODE_FIFO_KHR;
}

}  // namespace

Swapchain::Swapchain(const VulkanContext& ctx, VkExtent2D framebufferExtent, VkPresentModeKHR presentMode)
    : ctx_(ctx) {
    surfaceFormat_ = chooseSurfaceFormat(ctx);
    presentMode_ = choosePresentMode(ctx, presentMode, presentModeNotice_);
    requireDepthFormat(ctx, kDepthFormat);
    create(framebufferExtent);
}

Swapchain::~Swapchain() {
    ctx_.waitIdleForTeardown();
    if (gpuAbandoned()) return;  // the GPU may still draw into the images: leaked (gpu_wait.h)
    destroyImages();
    if (swapchain_) vkDestroySwapchainKHR(ctx_.device(), swapchain_, nullptr);
}

void Swapchain::recreate(VkExtent2D framebufferExtent) {
    if (framebufferExtent.width == 0 || framebufferExtent.height == 0) return;
    // Frames in flight still draw into the old images and signal the old
    // semaphores; only an idle device lets us free them.
    VK_CHECK(vkDeviceWaitIdle(ctx_.device()));
    create(framebufferExtent);
}

void Swapchain::create(VkExtent2D framebufferExtent) {
    VkSurfaceCapabilitiesKHR caps;
    VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx_.physicalDevice(), ctx_.surface(), &caps));
    // currentExtent is the window's size, unless the surface lets the swapchain decide.
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == UINT32_MAX) {
        extent.width = std::clamp(framebufferExtent.width, caps.minImageExtent.width, caps.maxImageExtent.width);
        extent.height = std::clamp(framebufferExtent.height, caps.minImageExtent.height, caps.maxImageExtent.height);
    }
    if (extent.width == 0 || extent.height == 0) return;  // minimised: keep what there is

    // One image more than the minimum, so acquire rarely waits on the presentation engine.
    uint32_t imageCount = caps.minImageCount + 1;
    if (caps.maxImageCount > 0) imageCount = std::min(imageCount, caps.maxImageCount);

    VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    info.surface = ctx_.surface();
    info.minImageCount = imageCount;
    info.imageFormat = surfaceFormat_.format;
    info.imageColorSpace = surfaceFormat_.colorSpace;
    info.imageExtent = extent;
    info.imageArrayLayers = 1;
    // Copyable images let --screenshot read exactly what is presented.
    copyable_ = (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
    info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | (copyable_ ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0);
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = caps.currentTransform;
    info.compositeAlpha = chooseCompositeAlpha(caps.supportedCompositeAlpha);
    info.presentMode = presentMode_;
    info.clipped = VK_TRUE;
    info.oldSwapchain = swapchain_;
    VkSwapchainKHR created = VK_NULL_HANDLE;
    VK_CHECK(vkCreateSwapchainKHR(ctx_.device(), &info, nullptr, &created));

    destroyImages();
    if (swapchain_) vkDestroySwapchainKHR(ctx_.device(), swapchain_, nullptr);
    swapchain_ = created;
    extent_ = extent;
    outOfDate_ = false;
    ++generation_;
    ctx_.setName(swapchain_, VK_OBJECT_TYPE_SWAPCHAIN_KHR, fmt::format("swapchain #{}", generation_));

    uint32_t count = 0;
    VK_CHECK(vkGetSwapchainImagesKHR(ctx_.device(), swapchain_, &count, nullptr));
    std::vector<VkImage> images(count);
    VK_CHECK(vkGetSwapchainImagesKHR(ctx_.device(), swapchain_, &count, images.data()));
    images_.resize(count);
    for (uint32_t i = 0; i < count; ++i) {
        Image& image = images_[i];
        image.image = images[i];
        ctx_.setName(image.image, VK_OBJECT_TYPE_IMAGE, fmt::format("swapchain #{} image {}", generation_, i));

        VkImageViewCreateInfo viewInfo{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        viewInfo.image = image.image;
        viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D;
        viewInfo.format = surfaceFormat_.format;
        viewInfo.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VK_CHECK(vkCreateImageView(ctx_.device(), &viewInfo, nullptr, &image.view));
        ctx_.setName(image.view, VK_OBJECT_TYPE_IMAGE_VIEW, fmt::format("swapchain #{} view {}", generation_, i));

        VkSemaphoreCreateInfo semaphoreInfo{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VK_CHECK(vkCreateSemaphore(ctx_.device(), &semaphoreInfo, nullptr, &image.renderFinished));
        ctx_.setName(image.renderFinished, VK_OBJECT_TYPE_SEMAPHORE,
                     fmt::format("render finished (swapchain #{} image {})", generation_, i));
    }
    depth_ = GpuImage(ctx_, extent, kDepthFormat, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                      VK_IMAGE_ASPECT_DEPTH_BIT, fmt::format("depth buffer (swapchain #{})", generation_));
}

void Swapchain::destroyImages() {
    for (Image& image : images_) {
        vkDestroyImageView(ctx_.device(), image.view, nullptr);
        vkDestroySemaphore(ctx_.device(), image.renderFinished, nullptr);
    }
    images_.clear();
    depth_ = GpuImage();
}

std::optional<uint32_t> Swapchain::acquire(VkSemaphore imageAcquired) {
    uint32_t index = 0;
    const VkResult result =
        vkAcquireNextImageKHR(ctx_.device(), swapchain_, UINT64_MAX, imageAcquired, VK_NULL_HANDLE, &index);
    if (result == VK_ERROR_OUT_OF_DATE_KHR) {
        outOfDate_ = true;
        return std::nullopt;
    }
    // Suboptimal still acquired the image and will signal the semaphore: draw
    // and present it, then rebuild.
    if (result == VK_SUBOPTIMAL_KHR) outOfDate_ = true;
    else VK_CHECK(result);
    return index;
}

void Swapchain::present(uint32_t image) {
    VkPresentInfoKHR info{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    info.waitSemaphoreCount = 1;
    info.pWaitSemaphores = &images_.at(image).renderFinished;
    info.swapchainCount = 1;
    info.pSwapchains = &swapchain_;
    info.pImageIndices = &image;
    const VkResult result = vkQueuePresentKHR(ctx_.queue(), &info);
    if (result == VK_ERROR_OUT_OF_DATE_KHR || result == VK_SUBOPTIMAL_KHR) outOfDate_ = true;
    else VK_CHECK(result);
}

RenderTarget Swapchain::target(uint32_t image) const {
    const Image& i = images_.at(image);
    return {i.image, i.view, surfaceFormat_.format, depth_.image(), depth_.view(), extent_};
}

}  // namespace vksim
