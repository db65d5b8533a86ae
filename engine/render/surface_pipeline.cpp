#include "render/surface_pipeline.h"

#include <cstddef>

#include "shaders/rigid/rigid_types.h"

#include <array>
#include <string_view>

#include <fmt/format.h>

#include "shaders/shared/render_types.h"
#include "vk/context.h"
#include "vk/driver_crash.h"
#include "vk/gpu_wait.h"
#include "vk/shader_table.h"
#include "vk/vk_check.h"

namespace vksim {
namespace {

// A shader module for pipeline creation only (destroyed once the pipeline exists).
class ShaderModule {
public:
    ShaderModule(const VulkanContext& ctx, std::string_view name) : ctx_(ctx) {
        const ShaderBlob* blob = findShader(name);
        if (!blob) throw VulkanError(fmt::format("no shader named '{}' is built into vksim", name));
        VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        info.codeSize = blob->wordCount * sizeof(uint32_t);
        info.pCode = blob->code;
        {
            const DriverCall call("compiling the surface shaders");
            VK_CHECK(vkCreateShaderModule(ctx.device(), &info, nullptr, &module_));
        }
        ctx.setName(module_, VK_OBJECT_TYPE_SHADER_MODULE, std::string(name));
    }
    ~ShaderModule() { vkDestroyShaderModule(ctx_.device(), module_, nullptr); }
    ShaderModule(const ShaderModule&) = delete;
    ShaderModule& operator=(const ShaderModule&) = delete;
    VkShaderModule handle() const { return module_; }

private:
    const VulkanContext& ctx_;
    VkShaderModule module_ = VK_NULL_HANDLE;
};

constexpr uint32_t kPositionBinding = 0;
constexpr uint32_t kNormalBinding = 1;
constexpr uint32_t kScalarBinding = 2;
// Per instance: a rigid body's state (RigidBodyState: centre, then rotation),
// the transform applied after the draw's model matrix. Draws of anything
// else bind a buffer holding the identity transform.
constexpr uint32_t kBodyBinding = 3;

}  // namespace

SurfacePipeline::SurfacePipeline(const VulkanContext& ctx, VkFormat colorFormat, VkFormat depthFormat) : ctx_(ctx) {
    VkDescriptorSetLayoutBinding frameBinding{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
                                              VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.bindingCount = 1;
    setInfo.pBindings = &frameBinding;
    VK_CHECK(vkCreateDescriptorSetLayout(ctx.device(), &setInfo, nullptr, &frameSetLayout_));
    ctx.setName(frameSetLayout_, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, "frame uniforms");

    VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(gpu::DrawPush)};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &frameSetLayout_;
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &push;
    VK_CHECK(vkCreatePipelineLayout(ctx.device(), &layoutInfo, nullptr, &layout_));
    ctx.setName(layout_, VK_OBJECT_TYPE_PIPELINE_LAYOUT, "surface");

    const ShaderModule vertex(ctx, "render/surface.vert");
    const ShaderModule fragment(ctx, "render/surface.frag");
    std::array<VkPipelineShaderStageCreateInfo, 2> stages{};
    stages[0] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = vertex.handle();
    stages[0].pName = "main";
    stages[1] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = fragment.handle();
    stages[1].pName = "main";

    // Positions are vec4 (xyz + inverse mass for cloth): the shader takes .xyz.
    std::array<VkVertexInputBindingDescription, 4> bindings{{
        {kPositionBinding, sizeof(glm::vec4), VK_VERTEX_INPUT_RATE_VERTEX},
        {kNormalBinding, sizeof(glm::vec4), VK_VERTEX_INPUT_RATE_VERTEX},
        {kScalarBinding, sizeof(float), VK_VERTEX_INPUT_RATE_VERTEX},
        {kBodyBinding, sizeof(gpu::RigidBodyState), VK_VERTEX_INPUT_RATE_INSTANCE},
    }};
    const std::array<VkVertexInputAttributeDescription, 5> attributes{{
        {0, kPositionBinding, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
        {1, kNormalBinding, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
        {2, kScalarBinding, VK_FORMAT_R32_SFLOAT, 0},
        {3, kBodyBinding, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(gpu::RigidBodyState, position)},
        {4, kBodyBinding, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(gpu::RigidBodyState, rotation)},
    }};
    VkPipelineVertexInputStateCreateInfo vertexInput{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vertexInput.vertexBindingDescriptionCount = static_cast<uint32_t>(bindings.size());
    vertexInput.pVertexBindingDescriptions = bindings.data();
    vertexInput.vertexAttributeDescriptionCount = static_cast<uint32_t>(attributes.size());
    vertexInput.pVertexAttributeDescriptions = attributes.data();

    VkPipelineInputAssemblyStateCreateInfo inputAssembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    inputAssembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;

    // Viewport and scissor are dynamic so a resize needs no new pipeline.
    VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewport.viewportCount = 1;
    viewport.scissorCount = 1;

    VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = VK_CULL_MODE_NONE;
    // Meshes wind counter-clockwise around their normals; the projection's Y
    // flip keeps that counter-clockwise in Vulkan's framebuffer, so
    // gl_FrontFacing is true on the side the normal points to.
    raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    raster.lineWidth = 1.0f;

    VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;

    VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    depth.depthTestEnable = VK_TRUE;
    depth.depthWriteEnable = VK_TRUE;
    depth.depthCompareOp = VK_COMPARE_OP_LESS;

    VkPipelineColorBlendAttachmentState blendAttachment{};
    blendAttachment.colorWriteMask =
        VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blend.attachmentCount = 1;
    blend.pAttachments = &blendAttachment;

    const std::array<VkDynamicState, 2> dynamicStates{VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dynamic.dynamicStateCount = static_cast<uint32_t>(dynamicStates.size());
    dynamic.pDynamicStates = dynamicStates.data();

    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &colorFormat;
    rendering.depthAttachmentFormat = depthFormat;

    VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    info.pNext = &rendering;
    info.stageCount = static_cast<uint32_t>(stages.size());
    info.pStages = stages.data();
    info.pVertexInputState = &vertexInput;
    info.pInputAssemblyState = &inputAssembly;
    info.pViewportState = &viewport;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &depth;
    info.pColorBlendState = &blend;
    info.pDynamicState = &dynamic;
    info.layout = layout_;
    // lavapipe compiles the shaders here, with LLVM.
    const DriverCall call("compiling the surface shaders");
    VK_CHECK(vkCreateGraphicsPipelines(ctx.device(), VK_NULL_HANDLE, 1, &info, nullptr,
                                       &pipelines_[size_t(SurfaceStyle::Fill)]));
    ctx.setName(pipelines_[size_t(SurfaceStyle::Fill)], VK_OBJECT_TYPE_PIPELINE, "surface");

    if (ctx.fillModeNonSolid()) {
        raster.polygonMode = VK_POLYGON_MODE_LINE;
        VK_CHECK(vkCreateGraphicsPipelines(ctx.device(), VK_NULL_HANDLE, 1, &info, nullptr,
                                           &pipelines_[size_t(SurfaceStyle::Lines)]));
        ctx.setName(pipelines_[size_t(SurfaceStyle::Lines)], VK_OBJECT_TYPE_PIPELINE, "surface (wireframe)");
        raster.polygonMode = VK_POLYGON_MODE_FILL;
    }
    inputAssembly.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    VK_CHECK(vkCreateGraphicsPipelines(ctx.device(), VK_NULL_HANDLE, 1, &info, nullptr,
                                       &pipelines_[size_t(SurfaceStyle::Points)]));
    ctx.setName(pipelines_[size_t(SurfaceStyle::Points)], VK_OBJECT_TYPE_PIPELINE, "surface (particles)");
    // Segments: vertices of vec4 (position, scalar), the scalar bound at
    // offset 12 of the same buffer; drawn over the surfaces.
    inputAssembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    bindings[kScalarBinding].stride = sizeof(glm::vec4);
    depth.depthTestEnable = VK_FALSE;
    depth.depthWriteEnable = VK_FALSE;
    VK_CHECK(vkCreateGraphicsPipelines(ctx.device(), VK_NULL_HANDLE, 1, &info, nullptr,
                                       &pipelines_[size_t(SurfaceStyle::Segments)]));
    ctx.setName(pipelines_[size_t(SurfaceStyle::Segments)], VK_OBJECT_TYPE_PIPELINE, "surface (segments)");
}

SurfacePipeline::~SurfacePipeline() {
    if (gpuAbandoned()) return;  // the GPU may still run the pipelines: leaked (gpu_wait.h)
    for (VkPipeline pipeline : pipelines_) vkDestroyPipeline(ctx_.device(), pipeline, nullptr);
    vkDestroyPipelineLayout(ctx_.device(), layout_, nullptr);
    vkDestroyDescriptorSetLayout(ctx_.device(), frameSetLayout_, nullptr);
}

}  // namespace vksim
