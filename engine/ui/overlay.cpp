#include "ui/overlay.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>

#include "vk/context.h"
#include "vk/gpu_wait.h"
#include "vk/vk_check.h"

namespace vksim {
namespace {

// The backend asks for every function by name: device functions from the
// device (what volk loaded), the rest from the instance.
struct LoaderHandles {
    VkInstance instance;
    VkDevice device;
};

PFN_vkVoidFunction loadVulkanFunction(const char* name, void* user) {
    const auto* handles = static_cast<const LoaderHandles*>(user);
    if (PFN_vkVoidFunction f = vkGetDeviceProcAddr(handles->device, name)) return f;
    return vkGetInstanceProcAddr(handles->instance, name);
}

void checkImGuiVk(VkResult result) {
    if (result < 0) throw VulkanError(fmt::format("the ImGui Vulkan backend got {}", int(result)));
}

VkRenderPass createOverlayPass(const VulkanContext& ctx, VkFormat colorFormat) {
    VkAttachmentDescription color{};
    color.format = colorFormat;
    color.samples = VK_SAMPLE_COUNT_1_BIT;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;  // on top of the scene
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    color.initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &reference;
    // The scene's colour writes come before the UI's blended reads and
    // writes (read-after-write); what follows the pass (present, copy) has
    // its own barrier naming COLOR_ATTACHMENT_OUTPUT as its source.
    VkSubpassDependency dependency{};
    dependency.srcSubpass = VK_SUBPASS_EXTERNAL;
    dependency.dstSubpass = 0;
    dependency.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    dependency.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    dependency.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    dependency.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    info.attachmentCount = 1;
    info.pAttachments = &color;
    info.subpassCount = 1;
    info.pSubpasses = &subpass;
    info.dependencyCount = 1;
    info.pDependencies = &dependency;
    VkRenderPass pass = VK_NULL_HANDLE;
    VK_CHECK(vkCreateRenderPass(ctx.device(), &info, nullptr, &pass));
    ctx.setName(pass, VK_OBJECT_TYPE_RENDER_PASS, "overlay");
    return pass;
}

}  // namespace

Overlay::Overlay(const VulkanContext& ctx, GLFWwindow* window, VkFormat colorFormat, uint32_t framesInFlight)
    : ctx_(ctx), framebuffers_(framesInFlight, VK_NULL_HANDLE) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini next to wherever vksim runs
    ImGui::StyleColorsDark();
    ImGui::GetStyle().Alpha = 0.92f;

    LoaderHandles handles{ctx.instance(), ctx.device()};
    if (!ImGui_ImplVulkan_LoadFunctions(loadVulkanFunction, &handles))
        throw VulkanError("the ImGui Vulkan backend could not load its Vulkan functions");
    ImGui_ImplGlfw_InitForVulkan(window, true);

    // The font atlas is the only image; a few sets spare.
    const std::array<VkDescriptorPoolSize, 1> sizes{{{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 8}}};
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    poolInfo.maxSets = 8;
    poolInfo.poolSizeCount = uint32_t(sizes.size());
    poolInfo.pPoolSizes = sizes.data();
    VK_CHECK(vkCreateDescriptorPool(ctx.device(), &poolInfo, nullptr, &descriptorPool_));
    ctx.setName(descriptorPool_, VK_OBJECT_TYPE_DESCRIPTOR_POOL, "overlay");
    renderPass_ = createOverlayPass(ctx, colorFormat);

    ImGui_ImplVulkan_InitInfo info{};
    info.Instance = ctx.instance();
    info.PhysicalDevice = ctx.physicalDevice();
    info.Device = ctx.device();
    info.QueueFamily = ctx.queueFamily();
    info.Queue = ctx.queue();
    info.DescriptorPool = descriptorPool_;
    // The backend cycles its vertex buffers over ImageCount draws: one per
    // frame in flight, so a buffer is rewritten only after its frame's fence.
    info.MinImageCount = std::max(2u, framesInFlight);
    info.ImageCount = std::max(2u, framesInFlight);
    info.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
    info.CheckVkResultFn = checkImGuiVk;
    ImGui_ImplVulkan_Init(&info, renderPass_);
    ctx.submitAndWait([](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); });
    ImGui_ImplVulkan_DestroyFontUploadObjects();
}

Overlay::~Overlay() {
    ctx_.waitIdleForTeardown();
    if (gpuAbandoned()) return;  // the GPU may still draw the overlay: leaked (gpu_wait.h)
    if (frameOpen_) ImGui::EndFrame();
    ImGui_ImplVulkan_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    for (VkFramebuffer framebuffer : framebuffers_) vkDestroyFramebuffer(ctx_.device(), framebuffer, nullptr);
    vkDestroyRenderPass(ctx_.device(), renderPass_, nullptr);
    vkDestroyDescriptorPool(ctx_.device(), descriptorPool_, nullptr);
}

void Overlay::beginFrame() {
    ImGui_ImplVulkan_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    frameOpen_ = true;
}

void Overlay::discardFrame() {
    if (!frameOpen_) return;
    ImGui::EndFrame();
    frameOpen_ = false;
}

void Overlay::record(VkCommandBuffer cmd, uint32_t slot, const RenderTarget& target) {
    if (!frameOpen_) return;
    ImGui::Render();
    frameOpen_ = false;

    // The slot's previous frame has finished (its fence was waited on), so
    // its framebuffer is free to go.
    VkFramebuffer& framebuffer = framebuffers_.at(slot);
    vkDestroyFramebuffer(ctx_.device(), framebuffer, nullptr);
    VkFramebufferCreateInfo fbInfo{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fbInfo.renderPass = renderPass_;
    fbInfo.attachmentCount = 1;
    fbInfo.pAttachments = &target.colorView;
    fbInfo.width = target.extent.width;
    fbInfo.height = target.extent.height;
    fbInfo.layers = 1;
    VK_CHECK(vkCreateFramebuffer(ctx_.device(), &fbInfo, nullptr, &framebuffer));

    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = renderPass_;
    begin.framebuffer = framebuffer;
    begin.renderArea = {{0, 0}, target.extent};
    vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
    ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), cmd);
    vkCmdEndRenderPass(cmd);
}

bool Overlay::wantsMouse() const { return ImGui::GetIO().WantCaptureMouse; }
bool Overlay::wantsKeyboard() const { return ImGui::GetIO().WantCaptureKeyboard; }

}  // namespace vksim
