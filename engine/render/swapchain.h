#pragma once
// The images the window shows, and what must be rebuilt with them when the
// window changes size: the image views, the depth buffer (D32_SFLOAT), and
// one render-finished semaphore per image. Presentation waits on the
// semaphore of the image it shows; a semaphore per image (not per frame in
// flight) is what guarantees that the presentation engine is done with it
// before a later submission signals it again.
#include <optional>
#include <string>
#include <vector>

#include <volk.h>

#include "render/render_target.h"
#include "vk/gpu_image.h"

namespace vksim {

class VulkanContext;

class Swapchain {
public:
    static constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

    // Picks the colour format once (sRGB BGRA8 when the surface has it); the
    // images are created now unless the window is minimised (zero extent).
    // `presentMode` is what was asked for; a surface without it gets FIFO
    // (always supported), and presentModeNotice() says so in one line.
    Swapchain(const VulkanContext& ctx, VkExtent2D framebufferExtent,
              VkPresentModeKHR presentMode = VK_PRESENT_MODE_FIFO_KHR);
    ~Swapchain();
    Swapchain(const Swapchain&) = delete;
    Swapchain& operator=(const Swapchain&) = delete;

    // Waits for the device to idle, then rebuilds everything for the new
    // size. A zero extent (minimised) leaves the swapchain as it is.
    void recreate(VkExtent2D framebufferExtent);
    // False until images exist, and after acquire or present found the
    // swapchain out of date or suboptimal: call recreate() before drawing.
    bool usable() const { return swapchain_ != VK_NULL_HANDLE && !outOfDate_; }

    // The next image to draw into; `imageAcquired` is signalled when the
    // presentation engine has let go of it. nullopt when the swapchain is out
    // of date (then nothing is signalled).
    std::optional<uint32_t> acquire(VkSemaphore imageAcquired);
    // Shows `image` once renderFinished(image) has been signalled.
    void present(uint32_t image);

    VkSemaphore renderFinished(uint32_t image) const { return images_.at(image).renderFinished; }
    RenderTarget target(uint32_t image) const;
    VkFormat colorFormat() const { return surfaceFormat_.format; }
    VkFormat depthFormat() const { return kDepthFormat; }
    VkExtent2D extent() const { return extent_; }
    VkPresentModeKHR presentMode() const { return presentMode_; }
    const std::string& presentModeNotice() const { return presentModeNotice_; }
    // Whether the images can be copied from (TRANSFER_SRC usage), for screenshots.
    bool copyable() const { return copyable_; }

private:
    struct Image {
        VkImage image = VK_NULL_HANDLE;  // owned by the swapchain
        VkImageView view = VK_NULL_HANDLE;
        VkSemaphore renderFinished = VK_NULL_HANDLE;
    };

    void create(VkExtent2D extent);
    void destroyImages();

    const VulkanContext& ctx_;
    VkSurfaceFormatKHR surfaceFormat_{};
    VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
    VkExtent2D extent_{};
    std::vector<Image> images_;
    GpuImage depth_;
    bool outOfDate_ = false;
    VkPresentModeKHR presentMode_ = VK_PRESENT_MODE_FIFO_KHR;
    std::string presentModeNotice_;
    bool copyable_ = false;
    uint32_t generation_ = 0;  // in debug names, to tell recreated objects apart
};

}  // namespace vksim
