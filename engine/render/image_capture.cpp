#include "render/image_capture.h"

#include <stdexcept>

#include <fmt/format.h>

#include "render/image_barrier.h"
#include "render/png_file.h"
#include "vk/barriers.h"

namespace vksim {
namespace {

bool isBgra(VkFormat format) { return format == VK_FORMAT_B8G8R8A8_SRGB || format == VK_FORMAT_B8G8R8A8_UNORM; }

}  // namespace

bool ImageCapture::supportsFormat(VkFormat format) {
    return isBgra(format) || format == VK_FORMAT_R8G8B8A8_SRGB || format == VK_FORMAT_R8G8B8A8_UNORM;
}

void ImageCapture::record(VkCommandBuffer cmd, const RenderTarget& target) {
    if (!supportsFormat(target.colorFormat))
        throw std::runtime_error(fmt::format("cannot take a screenshot of a VkFormat {} image", int(target.colorFormat)));
    extent_ = target.extent;
    format_ = target.colorFormat;
    const VkDeviceSize size = VkDeviceSize(extent_.width) * extent_.height * 4;
    if (!buffer_ || buffer_.size() != size)
        buffer_ = GpuBuffer(ctx_, size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind::HostVisible, "screenshot");

    imageBarrier(cmd, target.color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {extent_.width, extent_.height, 1};
    vkCmdCopyImageToBuffer(cmd, target.color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer_.handle(), 1, &region);
    transferToHostBarrier(cmd);
}

std::vector<uint8_t> ImageCapture::pixels() const {
    if (!buffer_) throw std::logic_error("ImageCapture::pixels before record");
    const auto* bytes = static_cast<const uint8_t*>(buffer_.mapped());
    std::vector<uint8_t> rgba(bytes, bytes + buffer_.size());
    for (size_t i = 0; i < rgba.size(); i += 4) {
        if (isBgra(format_)) std::swap(rgba[i], rgba[i + 2]);
        rgba[i + 3] = 255;  // what the window shows is opaque
    }
    return rgba;
}

void ImageCapture::writePng(const std::string& path) const {
    vksim::writePng(path, extent_.width, extent_.height, pixels());
}

}  // namespace vksim
