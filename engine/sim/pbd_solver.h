#pragma once
// Position based dynamics on the GPU (SPEC.md 1-3): the state and topology
// buffers of a SimModel, the compute kernels of every pass, and the recording
// of one frame as an explicit, ordered list of named, timed passes. Positions
// and normals are storage buffers that the renderer also binds as vertex
// buffers, so nothing goes through the host between simulating and drawing.
#include <memory>
#include <optional>
#include <vector>

#include <glm/glm.hpp>
#include <volk.h>

#include "scene/scene.h"
#include "sim/finite_probe.h"
#include "sim/interaction.h"
#include "sim/sim_model.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;
class GpuTimer;
class ResidualTracker;

class PbdSolver {
public:
    PbdSolver(const VulkanContext& ctx, const SimModel& model);
    ~PbdSolver();

    // Timestamped pass runs one frame records (to size the GpuTimer).
    static uint32_t passRunsPerFrame(const SimModel& model, const SolverSettings& settings);

    // Registers the pass names with `timer` (step order); required before recordFrame.
    void registerPasses(GpuTimer& timer);

    // One frame = settings.substeps substeps of SPEC.md 1, then the normals
    // pass. Starts with the barriers that order it after the previous frame's
    // simulation and drawing; ends with compute writes not yet made visible to
    // anything (callers add computeToVertexInputBarrier before drawing).
    void recordFrame(VkCommandBuffer cmd, const SolverSettings& settings, GpuTimer& timer);

    // Set-up-time updates (they wait for the queue): live parameter edits.
    void uploadMaterials(const std::vector<gpu::ConstraintMaterial>& materials);
    void uploadColliders(const std::vector<gpu::Collider>& colliders);
    void resetState(const SimModel& model);

    // Live edits without a wait: the new values are recorded into the next
    // recordFrame (vkCmdUpdateBuffer at its start, between barriers that
    // order it after the previous frames' reads and before this frame's).
    void setMaterials(const std::vector<gpu::ConstraintMaterial>& materials);
    void setColliders(const std::vector<gpu::Collider>& colliders);

    // The dragged PBD particle (interaction.h), or none. While set, every
    // iteration starts with the "mouse drag" pass;
    // none (the default) records nothing extra. The particle must be a PBD
    // particle (< the PD range's first).
    void setMouse(std::optional<MouseAttachment> mouse);
    const std::optional<MouseAttachment>& mouse() const { return mouse_; }

    // Residual tracking (residual_tracker.h): while the tracker is set and
    // enabled, the last substep records the mean |C| of the distance
    // constraints after every iteration (series Pbd) and, when
    // xpbdEnergyDefined(), the XPBD objective g(p) (series PbdEnergy,
    // pbd/energy.comp). The tracker must outlive its use.
    void setResidualTracker(ResidualTracker* tracker);
    // Whether the PBD particles have an energy: there are constraints and
    // every one is XPBD with compliance > 0 (with the current materials).
    bool xpbdEnergyDefined() const;

    // With a probe set, every pass that writes particle state (positions,
    // predicted positions, velocities, normals) is followed by a check of
    // what it wrote, labelled with its pass, substep and iteration: for
    // finding the pass where a simulation went non-finite. Null (the default)
    // records nothing extra. The probe must outlive its use here.
    void setFiniteProbe(FiniteProbe* probe) { probe_ = probe; }

    const GpuBuffer& positions() const { return positions_; }
    const GpuBuffer& velocities() const { return velocities_; }
    const GpuBuffer& normals() const { return normals_; }
    const GpuBuffer& triangleIndices() const { return triangles_; }
    const GpuBuffer& predicted() const { return predicted_; }
    uint32_t pbdParticleCount() const { return pbdParticleCount_; }
    uint32_t particleCount() const { return particleCount_; }
    uint32_t triangleCount() const { return triangleCount_; }

    std::vector<glm::vec4> readPositions() const { return positions_.downloadArray<glm::vec4>(); }
    std::vector<glm::vec4> readVelocities() const { return velocities_.downloadArray<glm::vec4>(); }

private:
    struct PassIds;
    void recordSubstep(VkCommandBuffer cmd, const SolverSettings& settings, uint32_t substep, float h,
                       GpuTimer& timer);
    void projectColors(VkCommandBuffer cmd, const ComputeKernel& kernel, VkDescriptorSet set,
                       const std::vector<ColorRange>& colors, const std::vector<uint32_t>& passIds,
                       gpu::ProjectPush push, StepPosition position, GpuTimer& timer);
    // Checks what pass `passId` wrote when a finite probe is set; else nothing.
    void probePass(VkCommandBuffer cmd, const GpuTimer& timer, uint32_t passId, StepPosition position,
                   ProbedBuffer first, ProbedBuffer second = {});
    void recordPendingUpdates(VkCommandBuffer cmd);

    const VulkanContext& ctx_;
    uint32_t particleCount_ = 0;  // every particle: normals are computed for all objects
    uint32_t pbdParticleCount_ = 0;  // the PBD range [0, n) this solver steps; PD particles follow it
    uint32_t triangleCount_ = 0;
    uint32_t colliderCount_ = 0;
    size_t distanceCount_ = 0, bendingCount_ = 0, attachmentCount_ = 0;
    std::vector<ColorRange> distanceColors_, bendingColors_, attachmentColors_;
    // The material rows some constraint uses, and the current rows (live edits included).
    std::vector<uint32_t> materialsInUse_;
    std::vector<gpu::ConstraintMaterial> currentMaterials_;

    // Per-step state.
    GpuBuffer positions_, predicted_, velocities_, contacts_, normals_;
    GpuBuffer distanceLambdas_, bendingLambdas_, attachmentLambdas_;
    // Topology, uploaded once.
    GpuBuffer materials_, distance_, bending_, attachments_, colliders_, meshSdfGrids_;
    GpuBuffer triangles_, adjacencyOffsets_, adjacentTriangles_;

    // One kernel per pass type, each with its buffers bound once.
    std::unique_ptr<ComputeKernel> predict_, collideGenerate_, projectDistance_, projectBending_,
        projectAttachment_, projectCollision_, updateVelocity_, contactVelocity_, computeNormals_;
    VkDescriptorSet predictSet_{}, collideGenerateSet_{}, distanceSet_{}, bendingSet_{}, attachmentSet_{},
        collisionSet_{}, updateVelocitySet_{}, contactVelocitySet_{}, normalsSet_{};

    // Interaction and diagnostics: the mouse attachment, the residual pass.
    std::unique_ptr<ComputeKernel> projectMouse_, residualDistance_, energy_;
    VkDescriptorSet mouseSet_{}, residualSet_{}, energySet_{};
    std::optional<MouseAttachment> mouse_;
    ResidualTracker* tracker_ = nullptr;
    std::optional<std::vector<gpu::ConstraintMaterial>> pendingMaterials_;
    std::optional<std::vector<gpu::Collider>> pendingColliders_;

    std::unique_ptr<PassIds> passIds_;
    FiniteProbe* probe_ = nullptr;
};

}  // namespace vksim
