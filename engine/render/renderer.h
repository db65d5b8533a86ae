#pragma once
// Draws one frame of the scene into a render target (a swapchain image or the
// offscreen target: the same commands either way): the colliders (static
// meshes built once) and the cloth, read straight from the solver's storage
// buffers as vertex and index buffers. Records the layout transitions of the
// colour and depth attachments itself (UNDEFINED -> attachment), but not the
// compute -> vertex input barrier: the frame loop places that between the
// simulation and this; nor the colour image's last transition (to present,
// or to a copy), which depends on what follows (overlay, screenshot).
#include <memory>
#include <vector>

#include <glm/glm.hpp>
#include <volk.h>

#include "render/contact_lines.h"
#include "render/wind_lines.h"
#include "render/anchor_lines.h"
#include "render/display_mode.h"
#include "render/gpu_mesh.h"
#include "render/orbit_camera.h"
#include "render/particle_scalars.h"
#include "render/render_target.h"
#include "render/surface_pipeline.h"
#include "shaders/shared/render_types.h"
#include "solvers/sim_model.h"
#include "state/particle_store.h"
#include "vk/buffer.h"

namespace vksim {

class ContactStage;
class VulkanContext;
class WindStage;

class Renderer {
public:
    // `particles`, `bodyStates` (the rigid bodies' RigidBodyState buffer;
    // unused without bodies), `colliders` (the collider set's buffer, the
    // poses of the kinematic colliders), `contacts` (null without contacts) and `wind`
    // (null without "aero") must outlive the renderer: they are bound every frame.
    Renderer(const VulkanContext& ctx, const SimModel& model, const ParticleStore& particles,
             const GpuBuffer& bodyStates, const GpuBuffer& colliders, const ContactStage* contacts,
             const WindStage* wind, VkFormat colorFormat, VkFormat depthFormat, uint32_t framesInFlight);
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    // Compute work the display settings need (the strain pass, the lines of
    // the contacts, the wind and the anchors), recorded after the simulation
    // and before the caller's compute -> vertex input barrier, all of them
    // between one pair of barriers.
    void recordCompute(VkCommandBuffer cmd, const DisplaySettings& display);

    // Writes frame slot `slot`'s uniforms (its fence must have signalled) and
    // records the drawing of the scene into `target`, whose colour image ends
    // up in COLOR_ATTACHMENT_OPTIMAL layout.
    void recordFrame(VkCommandBuffer cmd, uint32_t slot, const RenderTarget& target, const CameraView& camera,
                     const DisplaySettings& display = {});

    // Wireframe draws need the fillModeNonSolid feature; without it the mode
    // draws shaded.
    bool wireframeAvailable() const { return pipeline_.pipeline(SurfaceStyle::Lines) != VK_NULL_HANDLE; }

private:
    struct ColliderDraw {
        GpuMesh mesh;
        gpu::DrawPush push;
        // A kinematic collider is placed by its row of the collider buffer
        // (a Collider starts with position and rotation, as a RigidBodyState
        // does, and is as long), written on the GPU every substep; the
        // others by their model matrix.
        bool moving = false;
        uint32_t collider = 0;
    };
    struct BodyDraw {
        GpuMesh mesh;
        uint32_t body = 0;  // its RigidBodyState in bodyStates_
        gpu::DrawPush push;
    };
    struct ClothDraw {
        uint32_t firstIndex = 0;
        uint32_t indexCount = 0;
        uint32_t firstParticle = 0;
        uint32_t particleCount = 0;
        gpu::DrawPush push;
    };

    void createFrameSets(uint32_t framesInFlight);
    void recordDraws(VkCommandBuffer cmd, uint32_t slot, VkExtent2D extent, const DisplaySettings& display);

    const VulkanContext& ctx_;
    const ParticleStore& particles_;
    SurfacePipeline pipeline_;
    ParticleScalars scalars_;
    float pointSize_ = 1.0f;
    std::vector<GpuBuffer> frameUniforms_;  // one per frame in flight, host-visible
    VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
    std::vector<VkDescriptorSet> frameSets_;
    std::vector<ColliderDraw> colliders_;
    std::vector<ClothDraw> cloths_;
    const GpuBuffer& bodyStates_;
    const GpuBuffer& colliderRows_;
    GpuBuffer identityTransform_;  // one RigidBodyState at the origin, unrotated: the instance data of non-body draws
    std::vector<BodyDraw> bodies_;
    std::unique_ptr<ContactLines> contactLines_;  // null without contacts
    std::unique_ptr<WindLines> windLines_;        // null without "aero"
    std::unique_ptr<AnchorLines> anchorLines_;    // null without tethers or attachments
};

}  // namespace vksim
