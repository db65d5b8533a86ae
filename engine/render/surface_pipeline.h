#pragma once
// The graphics pipeline every lit surface is drawn with (render/surface.vert
// and .frag): cloth straight from the solver's buffers and the collider
// meshes alike. Vertex input is two vec4 streams, position at binding 0 and
// normal at binding 1 (16-byte strides, the layout of ParticleStore::positions()
// and normals()), and one float at binding 2 for the colour-by display modes;
// set 0 holds the FrameUniforms block; every draw pushes a DrawPush. Nothing
// is culled: cloth is seen from both sides. Rendering is dynamic (no render
// pass object): one colour and one depth attachment. Three variants share
// the layout: filled triangles, triangle edges (wireframe; only with the
// fillModeNonSolid feature) and points (particles). A fourth draws line
// segments over everything (no depth test), each vertex a vec4 of position
// and scalar (render/contact_lines.h): binding 2 then reads that vertex's w.
#include <volk.h>

namespace vksim {

class VulkanContext;

enum class SurfaceStyle { Fill, Lines, Points, Segments };

class SurfacePipeline {
public:
    SurfacePipeline(const VulkanContext& ctx, VkFormat colorFormat, VkFormat depthFormat);
    ~SurfacePipeline();
    SurfacePipeline(const SurfacePipeline&) = delete;
    SurfacePipeline& operator=(const SurfacePipeline&) = delete;

    // VK_NULL_HANDLE for Lines on a device without fillModeNonSolid.
    VkPipeline pipeline(SurfaceStyle style = SurfaceStyle::Fill) const { return pipelines_[size_t(style)]; }
    VkPipelineLayout layout() const { return layout_; }
    VkDescriptorSetLayout frameSetLayout() const { return frameSetLayout_; }

private:
    const VulkanContext& ctx_;
    VkDescriptorSetLayout frameSetLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipelines_[4] = {VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE};
};

}  // namespace vksim
