#pragma once
// The graphics pipeline every lit surface is drawn with (render/surface.vert
// and .frag): cloth straight from the solver's buffers and the collider
// meshes alike. Vertex input is two vec4 streams, position at binding 0 and
// normal at binding 1 (16-byte strides, the layout of PbdSolver::positions()
// and normals()); set 0 holds the FrameUniforms block; every draw pushes a
// DrawPush. Nothing is culled: cloth is seen from both sides. Rendering is
// dynamic (no render pass object): one colour and one depth attachment.
#include <volk.h>

namespace vksim {

class VulkanContext;

class SurfacePipeline {
public:
    SurfacePipeline(const VulkanContext& ctx, VkFormat colorFormat, VkFormat depthFormat);
    ~SurfacePipeline();
    SurfacePipeline(const SurfacePipeline&) = delete;
    SurfacePipeline& operator=(const SurfacePipeline&) = delete;

    VkPipeline pipeline() const { return pipeline_; }
    VkPipelineLayout layout() const { return layout_; }
    VkDescriptorSetLayout frameSetLayout() const { return frameSetLayout_; }

private:
    const VulkanContext& ctx_;
    VkDescriptorSetLayout frameSetLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
};

}  // namespace vksim
