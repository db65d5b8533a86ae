#pragma once
// The Dear ImGui overlay: the ImGui context, its GLFW input backend and its
// Vulkan backend (compiled from libimgui-dev's sources with volk's function
// pointers; see cmake/Dependencies.cmake), and the draw of one frame's UI on
// top of the scene. The 1.86 Vulkan backend needs a render pass, so the
// overlay has its own: one colour attachment loaded and stored in
// COLOR_ATTACHMENT_OPTIMAL (the layout the renderer leaves it in), and one
// framebuffer per frame slot, remade each frame (a swapchain image view
// changes with every resize).
#include <vector>

#include <volk.h>

#include "render/render_target.h"

struct GLFWwindow;

namespace vksim {

class VulkanContext;

class Overlay {
public:
    // Installs ImGui's GLFW callbacks, chained to the window's own (install
    // this after the Window has set its callbacks).
    Overlay(const VulkanContext& ctx, GLFWwindow* window, VkFormat colorFormat, uint32_t framesInFlight);
    ~Overlay();  // waits for the device to idle first
    Overlay(const Overlay&) = delete;
    Overlay& operator=(const Overlay&) = delete;

    // Starts a UI frame: ImGui:: calls may follow until record().
    void beginFrame();
    // Ends the UI frame and records its drawing into `target` (colour in
    // COLOR_ATTACHMENT_OPTIMAL, left so). The slot's fence must have signalled.
    void record(VkCommandBuffer cmd, uint32_t slot, const RenderTarget& target);
    // Ends a UI frame without drawing it (overlay hidden this frame).
    void discardFrame();

    // The cursor is over a UI window (or dragging one): the camera leaves the mouse alone.
    bool wantsMouse() const;
    // A text field has the keyboard: shortcuts leave the keys alone.
    bool wantsKeyboard() const;

private:
    const VulkanContext& ctx_;
    VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
    VkRenderPass renderPass_ = VK_NULL_HANDLE;
    std::vector<VkFramebuffer> framebuffers_;  // one per frame slot
    bool frameOpen_ = false;
};

}  // namespace vksim
