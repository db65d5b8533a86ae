#pragma once
// Copies what a render target's colour image holds into host memory, and
// writes it out as PNG once the frame's fence has signalled: the screenshot
// of --screenshot, windowed (the swapchain image itself) or headless (the
// offscreen target). The bytes are the image's own (sRGB-encoded for the
// sRGB formats the targets use), so the PNG shows what the window shows.
#include <cstdint>
#include <string>
#include <vector>

#include <volk.h>

#include "render/render_target.h"
#include "vk/buffer.h"

namespace vksim {

class VulkanContext;

class ImageCapture {
public:
    explicit ImageCapture(const VulkanContext& ctx) : ctx_(ctx) {}

    // True for the 8-bit RGBA/BGRA formats this can turn into PNG pixels.
    static bool supportsFormat(VkFormat format);

    // Records the copy of `target.color` (in COLOR_ATTACHMENT_OPTIMAL, after
    // the last draw into it); the image is left in TRANSFER_SRC_OPTIMAL.
    void record(VkCommandBuffer cmd, const RenderTarget& target);

    // After the fence of the frame that record() went into: RGBA8 pixels,
    // top row first.
    std::vector<uint8_t> pixels() const;
    void writePng(const std::string& path) const;
    VkExtent2D extent() const { return extent_; }
    bool recorded() const { return static_cast<bool>(buffer_); }

private:
    const VulkanContext& ctx_;
    GpuBuffer buffer_;
    VkExtent2D extent_{};
    VkFormat format_ = VK_FORMAT_UNDEFINED;
};

}  // namespace vksim
