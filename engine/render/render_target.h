#pragma once
// What the renderer draws into: a colour image and a depth buffer of one size.
// The window's swapchain and the headless offscreen target both hand these
// out, so both paths record the very same commands.
#include <volk.h>

namespace vksim {

struct RenderTarget {
    VkImage color = VK_NULL_HANDLE;
    VkImageView colorView = VK_NULL_HANDLE;
    VkFormat colorFormat = VK_FORMAT_UNDEFINED;
    VkImage depth = VK_NULL_HANDLE;
    VkImageView depthView = VK_NULL_HANDLE;
    VkExtent2D extent{};
};

}  // namespace vksim
