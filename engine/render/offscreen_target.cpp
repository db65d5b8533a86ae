#include "render/offscreen_target.h"

#include "render/swapchain.h"

namespace vksim {

OffscreenTarget::OffscreenTarget(const VulkanContext& ctx, VkExtent2D extent, VkFormat colorFormat)
    : color_(ctx, extent, colorFormat, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
             VK_IMAGE_ASPECT_COLOR_BIT, "offscreen colour"),
      depth_(ctx, extent, Swapchain::kDepthFormat, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
             VK_IMAGE_ASPECT_DEPTH_BIT, "offscreen depth") {}

RenderTarget OffscreenTarget::target() const {
    return {color_.image(), color_.view(), color_.format(), depth_.image(), depth_.view(), color_.extent()};
}

}  // namespace vksim
