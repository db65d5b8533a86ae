#pragma once
// A colour and a depth image to render into without a window (headless
// screenshots, and windowed ones when the surface's images cannot be copied).
// The colour format is the one a window usually gets (sRGB BGRA8), so the
// same shader output encodes to the same bytes on both paths.
#include "render/render_target.h"
#include "vk/gpu_image.h"

namespace vksim {

class VulkanContext;

class OffscreenTarget {
public:
    static constexpr VkFormat kColorFormat = VK_FORMAT_B8G8R8A8_SRGB;

    OffscreenTarget(const VulkanContext& ctx, VkExtent2D extent, VkFormat colorFormat = kColorFormat);

    RenderTarget target() const;

private:
    GpuImage color_;
    GpuImage depth_;
};

}  // namespace vksim
