#include "render/renderer.h"

#include <array>
#include <cstddef>

#include <fmt/format.h>

#include "contacts/contact_stage.h"
#include "render/image_barrier.h"
#include "render/shape_mesh.h"
#include "shaders/rigid/rigid_types.h"
#include "vk/barriers.h"

static_assert(sizeof(vksim::gpu::Collider) == sizeof(vksim::gpu::RigidBodyState) &&
                  offsetof(vksim::gpu::Collider, position) == offsetof(vksim::gpu::RigidBodyState, position) &&
                  offsetof(vksim::gpu::Collider, rotation) == offsetof(vksim::gpu::RigidBodyState, rotation),
              "a collider row is drawn as a body's instance transform");
#include "vk/context.h"
#include "vk/gpu_wait.h"
#include "vk/vk_check.h"

namespace vksim {
namespace {

// Linear colours (the swapchain is sRGB, so the hardware encodes them).
const glm::vec3 kSkyColor(0.55f, 0.62f, 0.72f);  // clear colour, and what far surfaces fade to
constexpr float kFogDensity = 0.02f;             // [1/m]
// From above, left of and in front of the usual camera (yaw 30-35 degrees):
// side-lit folds read better than head-on ones.
const glm::vec3 kLightDirection = glm::normalize(glm::vec3(-0.45f, 0.8f, 0.5f));
const glm::vec3 kLightColor(1.0f, 0.96f, 0.88f);
const glm::vec3 kAmbientColor(0.16f, 0.18f, 0.22f);
const glm::vec3 kColliderColor(0.30f, 0.36f, 0.45f);
const glm::vec3 kGroundColor(0.36f, 0.36f, 0.35f);
constexpr float kCheckerSize = 0.5f;  // [m]

// Scene files give colours as people pick them, sRGB-encoded; lighting
// works in linear light.
glm::vec3 srgbToLinear(glm::vec3 c) {
    return glm::mix(c / 12.92f, glm::pow((c + 0.055f) / 1.055f, glm::vec3(2.4f)), glm::step(glm::vec3(0.04045f), c));
}

// The underside of a cloth: a little darker and paler than the face, so the
// two sides are told apart where the cloth folds over.
glm::vec3 backSideOf(glm::vec3 front) { return 0.7f * glm::mix(front, glm::vec3(0.85f, 0.82f, 0.75f), 0.3f); }

gpu::DrawPush makePush(const glm::mat4& model, glm::vec3 front, glm::vec3 back, uint32_t pattern, float specular,
                       float shininess) {
    gpu::DrawPush push{};
    push.model = model;
    push.frontColor = glm::vec4(front, 1.0f);
    push.backColor = glm::vec4(back, 1.0f);
    push.pattern = pattern;
    push.checkerSize = kCheckerSize;
    push.specular = specular;
    push.shininess = shininess;
    return push;
}

}  // namespace

namespace {

// The triangles of mesh collider i (none for analytic shapes, or for models
// assembled by hand without surfaces).
const ColliderSurface& colliderSurface(const SimModel& model, size_t i) {
    static const ColliderSurface none;
    return i < model.colliderSurfaces.size() ? model.colliderSurfaces[i] : none;
}

}  // namespace

Renderer::Renderer(const VulkanContext& ctx, const SimModel& model, const ParticleStore& particles,
                   const GpuBuffer& bodyStates, const GpuBuffer& colliders, const ContactStage* contacts,
                   const WindStage* wind, VkFormat colorFormat, VkFormat depthFormat, uint32_t framesInFlight)
    : ctx_(ctx),
      particles_(particles),
      pipeline_(ctx, colorFormat, depthFormat),
      scalars_(ctx, model, particles),
      pointSize_(ctx.largePoints() ? std::min(4.0f, ctx.properties().limits.pointSizeRange[1]) : 1.0f),
      bodyStates_(bodyStates),
      colliderRows_(colliders) {
    createFrameSets(framesInFlight);
    if (contacts && !contacts->empty()) contactLines_ = std::make_unique<ContactLines>(ctx, *contacts, particles);
    if (wind) windLines_ = std::make_unique<WindLines>(ctx, *wind, particles);
    if (AnchorLines::anyIn(model)) anchorLines_ = std::make_unique<AnchorLines>(ctx, model, particles, colliders);
    const gpu::RigidBodyState identity{glm::vec4(0.0f), glm::vec4(0.0f, 0.0f, 0.0f, 1.0f), glm::vec4(0.0f),
                                       glm::vec4(0.0f), glm::vec4(0.0f), glm::vec4(0.0f)};
    identityTransform_ = makeStorageBuffer<gpu::RigidBodyState>(ctx, std::span(&identity, 1), "identity transform",
                                                                VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    // Rigid bodies: their shape's mesh in the body frame, placed by the
    // body's state on the GPU (surface.vert), never by the host.
    const RigidModel& rigid = model.rigid;
    for (uint32_t b = 0; b < rigid.bodyCount(); ++b) {
        const gpu::Collider& shape = rigid.shapes[b];
        const ColliderSurface surface{rigid.surfaces[b].positions, rigid.surfaces[b].triangles};
        const glm::vec3 color = srgbToLinear(rigid.colours[b]);
        bodies_.push_back({uploadMesh(ctx, makeColliderMesh(shape, surface), fmt::format("body {} mesh", b)), b,
                           makePush(colliderModelMatrix(shape), color, color, gpu::kPatternPlain, 0.3f, 32.0f)});
    }

    std::vector<bool> moving(model.colliders.size(), false);
    for (const gpu::KeyframeTrack& track : model.keyframeTracks) moving.at(track.collider) = true;
    for (size_t i = 0; i < model.colliders.size(); ++i) {
        const gpu::Collider& collider = model.colliders[i];
        const bool ground = collider.type == gpu::kColliderPlane;
        const glm::vec3 color = ground ? kGroundColor : kColliderColor;
        // A moving collider's mesh in its own frame; its row places it.
        gpu::Collider shape = collider;
        if (moving[i]) {
            shape.position = glm::vec4(0.0f);
            shape.rotation = glm::vec4(0.0f, 0.0f, 0.0f, 1.0f);
        }
        colliders_.push_back(
            {uploadMesh(ctx, makeColliderMesh(collider, colliderSurface(model, i)), fmt::format("collider {} mesh", i)),
             makePush(colliderModelMatrix(shape), color, color, ground ? gpu::kPatternChecker : gpu::kPatternPlain,
                      ground ? 0.05f : 0.35f, ground ? 16.0f : 48.0f),
             moving[i], static_cast<uint32_t>(i)});
    }
    // Cloth positions are already in world space: identity model matrix.
    for (const ObjectRange& object : model.objects) {
        const glm::vec3 color = srgbToLinear(object.color);
        cloths_.push_back({object.firstTriangle * 3, object.triangleCount * 3, object.firstParticle,
                           object.particleCount, makePush(glm::mat4(1.0f), color, backSideOf(color), gpu::kPatternPlain, 0.15f, 24.0f)});
    }
}

Renderer::~Renderer() {
    if (!gpuAbandoned()) vkDestroyDescriptorPool(ctx_.device(), descriptorPool_, nullptr);  // else leaked (gpu_wait.h)
}

void Renderer::createFrameSets(uint32_t framesInFlight) {
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, framesInFlight};
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.maxSets = framesInFlight;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &size;
    VK_CHECK(vkCreateDescriptorPool(ctx_.device(), &poolInfo, nullptr, &descriptorPool_));
    ctx_.setName(descriptorPool_, VK_OBJECT_TYPE_DESCRIPTOR_POOL, "frame uniforms");

    const std::vector<VkDescriptorSetLayout> layouts(framesInFlight, pipeline_.frameSetLayout());
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = descriptorPool_;
    alloc.descriptorSetCount = framesInFlight;
    alloc.pSetLayouts = layouts.data();
    frameSets_.resize(framesInFlight);
    VK_CHECK(vkAllocateDescriptorSets(ctx_.device(), &alloc, frameSets_.data()));

    for (uint32_t i = 0; i < framesInFlight; ++i) {
        frameUniforms_.emplace_back(ctx_, sizeof(gpu::FrameUniforms), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                    MemoryKind::HostVisible, fmt::format("frame {} uniforms", i));
        ctx_.setName(frameSets_[i], VK_OBJECT_TYPE_DESCRIPTOR_SET, fmt::format("frame {} uniforms", i));
        VkDescriptorBufferInfo bufferInfo{frameUniforms_[i].handle(), 0, sizeof(gpu::FrameUniforms)};
        VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        write.dstSet = frameSets_[i];
        write.dstBinding = 0;
        write.descriptorCount = 1;
        write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        write.pBufferInfo = &bufferInfo;
        vkUpdateDescriptorSets(ctx_.device(), 1, &write, 0, nullptr);
    }
}

void Renderer::recordCompute(VkCommandBuffer cmd, const DisplaySettings& display) {
    const bool strain = display.mode == DisplayMode::Strain;
    const bool contacts = display.contacts && contactLines_;
    const bool wind = display.wind && windLines_;
    const bool anchors = display.anchors && anchorLines_;
    if (!strain && !contacts && !wind && !anchors) return;
    // The display passes share one pair of barriers. Before: the last
    // frame's draws (vertex fetches, the contact lines' draw count) finish
    // before the passes rewrite what they read (nothing else orders them
    // while the simulation is paused), and the simulation's writes are
    // visible to the passes.
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                  VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_NONE);
    computeToComputeBarrier(cmd);
    if (strain) scalars_.recordStrain(cmd);
    if (contacts) contactLines_->record(cmd);
    if (wind) windLines_->record(cmd);
    if (anchors) anchorLines_->record(cmd);
    // After: the contact lines' draw count is visible to the draw (their
    // vertices, as every pass's, to the vertex fetch by the caller's
    // computeToVertexInputBarrier), and the passes' reads finish before the
    // next frame's passes write positions, lists and the air.
    if (contacts)
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
    computeToComputeBarrier(cmd);
}

void Renderer::recordFrame(VkCommandBuffer cmd, uint32_t slot, const RenderTarget& target, const CameraView& camera,
                           const DisplaySettings& display) {
    gpu::FrameUniforms uniforms{};
    uniforms.viewProjection = camera.viewProjection;
    uniforms.eye = glm::vec4(camera.eye, 1.0f);
    uniforms.lightDirection = glm::vec4(kLightDirection, 0.0f);
    uniforms.lightColor = glm::vec4(kLightColor, 0.0f);
    uniforms.ambientColor = glm::vec4(kAmbientColor, 0.0f);
    uniforms.fogColor = glm::vec4(kSkyColor, kFogDensity);
    // Host-coherent memory; the queue submission makes the write visible.
    frameUniforms_.at(slot).uploadArray(std::span<const gpu::FrameUniforms>(&uniforms, 1));

    // The previous contents are not needed (UNDEFINED). The colour barrier
    // waits at COLOR_ATTACHMENT_OUTPUT, the stage the image-acquired
    // semaphore is waited at, so the transition happens after acquisition.
    imageBarrier(cmd, target.color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    // One depth buffer serves every frame in flight: the previous frame's
    // depth tests finish before this frame clears it (write-after-write).
    imageBarrier(cmd, target.depth, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                 VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);

    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = target.colorView;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.clearValue.color = {{kSkyColor.r, kSkyColor.g, kSkyColor.b, 1.0f}};
    VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    depth.imageView = target.depthView;
    depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    depth.clearValue.depthStencil = {1.0f, 0};
    VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
    rendering.renderArea = {{0, 0}, target.extent};
    rendering.layerCount = 1;
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachments = &color;
    rendering.pDepthAttachment = &depth;
    vkCmdBeginRendering(cmd, &rendering);
    recordDraws(cmd, slot, target.extent, display);
    vkCmdEndRendering(cmd);
}

void Renderer::recordDraws(VkCommandBuffer cmd, uint32_t slot, VkExtent2D extent, const DisplaySettings& display) {
    const VkViewport viewport{0.0f, 0.0f, float(extent.width), float(extent.height), 0.0f, 1.0f};
    const VkRect2D scissor{{0, 0}, extent};
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_.pipeline());
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_.layout(), 0, 1, &frameSets_.at(slot), 0,
                            nullptr);
    const VkShaderStageFlags pushStages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

    // Colliders are always drawn filled, in their own colours; the scalar
    // stream is unused for them (their positions stand in as a valid buffer).
    if (display.colliders)
        for (const ColliderDraw& draw : colliders_) {
            const std::array<VkBuffer, 4> buffers{
                draw.mesh.vertices.handle(), draw.mesh.vertices.handle(), draw.mesh.vertices.handle(),
                draw.moving ? colliderRows_.handle() : identityTransform_.handle()};
            const std::array<VkDeviceSize, 4> offsets{
                0, draw.mesh.normalsOffset, 0, draw.moving ? VkDeviceSize{draw.collider} * sizeof(gpu::Collider) : 0};
            vkCmdBindVertexBuffers(cmd, 0, 4, buffers.data(), offsets.data());
            vkCmdBindIndexBuffer(cmd, draw.mesh.indices.handle(), 0, VK_INDEX_TYPE_UINT32);
            vkCmdPushConstants(cmd, pipeline_.layout(), pushStages, 0, sizeof(draw.push), &draw.push);
            vkCmdDrawIndexed(cmd, draw.mesh.indexCount, 1, 0, 0, 0);
        }

    // Rigid bodies, filled in their own colours whatever the display mode:
    // instance data from the solver's state buffer at the body's entry.
    for (const BodyDraw& draw : bodies_) {
        const std::array<VkBuffer, 4> buffers{draw.mesh.vertices.handle(), draw.mesh.vertices.handle(),
                                              draw.mesh.vertices.handle(), bodyStates_.handle()};
        const std::array<VkDeviceSize, 4> offsets{0, draw.mesh.normalsOffset, 0,
                                                  VkDeviceSize{draw.body} * sizeof(gpu::RigidBodyState)};
        vkCmdBindVertexBuffers(cmd, 0, 4, buffers.data(), offsets.data());
        vkCmdBindIndexBuffer(cmd, draw.mesh.indices.handle(), 0, VK_INDEX_TYPE_UINT32);
        vkCmdPushConstants(cmd, pipeline_.layout(), pushStages, 0, sizeof(draw.push), &draw.push);
        vkCmdDrawIndexed(cmd, draw.mesh.indexCount, 1, 0, 0, 0);
    }

    // The simulated objects: the particle store's storage buffers, bound as
    // vertex and index buffers (no copy anywhere), and the display mode's
    // per-particle scalar.
    const bool strain = display.mode == DisplayMode::Strain;
    const bool graph = display.mode == DisplayMode::GraphColour;
    const std::array<VkBuffer, 4> buffers{particles_.positions().handle(), particles_.normals().handle(),
                                          strain ? scalars_.strain().handle() : scalars_.graphColours().handle(),
                                          identityTransform_.handle()};
    const std::array<VkDeviceSize, 4> offsets{0, 0, 0, 0};
    vkCmdBindVertexBuffers(cmd, 0, 4, buffers.data(), offsets.data());
    vkCmdBindIndexBuffer(cmd, particles_.triangleIndices().handle(), 0, VK_INDEX_TYPE_UINT32);
    SurfaceStyle style = SurfaceStyle::Fill;
    if (display.mode == DisplayMode::Wireframe && wireframeAvailable()) style = SurfaceStyle::Lines;
    if (display.mode == DisplayMode::Particles) style = SurfaceStyle::Points;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_.pipeline(style));
    for (const ClothDraw& draw : cloths_) {
        gpu::DrawPush push = draw.push;
        push.colorBy = strain ? gpu::kColorByStrain : graph ? gpu::kColourByGraphColour : gpu::kColorByMaterial;
        push.pointSize = pointSize_;
        push.strainRange = 0.1f;  // +-10 % stretch saturates the ramp
        vkCmdPushConstants(cmd, pipeline_.layout(), pushStages, 0, sizeof(push), &push);
        if (style == SurfaceStyle::Points) vkCmdDraw(cmd, draw.particleCount, 1, draw.firstParticle, 0);
        else if (draw.indexCount > 0) vkCmdDrawIndexed(cmd, draw.indexCount, 1, draw.firstIndex, 0, 0);
    }

    // Lines over everything: one buffer of vec4 (position, colour) as
    // positions, normals (unused, unlit) and, at offset 12, scalars, in the
    // contact colours.
    auto bindLines = [&](const GpuBuffer& vertices) {
        const VkBuffer lines = vertices.handle();
        const std::array<VkBuffer, 4> lineBuffers{lines, lines, lines, identityTransform_.handle()};
        const std::array<VkDeviceSize, 4> lineOffsets{0, 0, 3 * sizeof(float), 0};
        vkCmdBindVertexBuffers(cmd, 0, 4, lineBuffers.data(), lineOffsets.data());
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_.pipeline(SurfaceStyle::Segments));
        gpu::DrawPush push =
            makePush(glm::mat4(1.0f), glm::vec3(1.0f), glm::vec3(1.0f), gpu::kPatternPlain, 0.0f, 1.0f);
        push.colorBy = gpu::kColourByContact;
        vkCmdPushConstants(cmd, pipeline_.layout(), pushStages, 0, sizeof(push), &push);
    };
    // The contacts, as many as the detection found.
    if (display.contacts && contactLines_) {
        bindLines(contactLines_->vertices());
        vkCmdDrawIndirect(cmd, contactLines_->drawCommand().handle(), 0, 1, sizeof(VkDrawIndirectCommand));
    }
    // The wind field: every particle's line, in contact colour 0.
    if (display.wind && windLines_) {
        bindLines(windLines_->vertices());
        vkCmdDraw(cmd, windLines_->vertexCount(), 1, 0, 0);
    }
    // The tethers and attachments: every held particle's line to its anchor.
    if (display.anchors && anchorLines_ && anchorLines_->vertexCount() > 0) {
        bindLines(anchorLines_->vertices());
        vkCmdDraw(cmd, anchorLines_->vertexCount(), 1, 0, 0);
    }
}

}  // namespace vksim
