#pragma once
// The rigid bodies of a world on the GPU (docs/physics.md §11): their
// body-frame constants, contact points, shapes and state, and the passes
// that step them. For one body, and for a few (settings path OneWorkgroup),
// a frame is "rigid: step" in one workgroup: every body and pair one after
// another, as few dispatches as a CPU driver's loop limit allows
// (rigid_frame_items.h; one for a small world). Per substep (PerSubstep) it
// is `iterations` times "rigid: collider contacts" (one workgroup per body;
// the first also updates the velocities) each followed by "rigid: body
// pairs" once per round of pairs (rigid_model.h), then "rigid: positions".
// Both orders are the same, so both paths give the same bits. Bodies touch
// the colliders, not the particles, so the stepper records them before the
// particle solvers.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "scene/scene.h"
#include "shaders/shared/rigid_types.h"
#include "solvers/rigid/rigid_model.h"
#include "state/interaction.h"
#include "step/step_plan.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;
class ColliderSet;

class RigidSolver {
public:
    static constexpr const char* kStepPassName = "rigid: step";
    static constexpr const char* kContactsPassName = "rigid: collider contacts";
    static constexpr const char* kPairsPassName = "rigid: body pairs";
    static constexpr const char* kPositionsPassName = "rigid: positions";
    static constexpr const char* kCollidersPassName = "rigid: colliders";
    // The most bodies RigidPath::Auto steps in one workgroup: on a CPU
    // device, and on a GPU (measured: docs/physics.md §11).
    static constexpr uint32_t kOneWorkgroupBodiesCpu = 4;
    static constexpr uint32_t kOneWorkgroupBodiesGpu = 8;

    // Whether `settings` step a frame in one workgroup (RigidPath::OneWorkgroup).
    bool oneWorkgroup(const SolverSettings& settings) const;

    // Throws std::invalid_argument on a CPU device when a body has so many
    // contact points that one body or pair would outrun the driver's loop
    // limit (rigid_frame_items.h).
    RigidSolver(const VulkanContext& ctx, const RigidModel& model, const ColliderSet& colliders);

    uint32_t bodyCount() const { return bodyCount_; }
    bool empty() const { return bodyCount_ == 0; }
    void declarePasses(StepPlan& plan);

    // Every substep of one frame, with the dragged body if there is one.
    // Records nothing without bodies.
    void recordFrame(StepRecorder& rec, const SolverSettings& settings, const std::optional<BodyDrag>& drag = {});
    // After recordFrame: every body's shape at its new pose into the
    // collider set's body entries, "rigid: colliders" (nothing when the set
    // has none: no particles to meet them).
    void recordColliders(StepRecorder& rec);

    // Back to the model's initial state (waits for the queue).
    void reset(const RigidModel& model);

    // Read by the renderer as the bodies' transforms (RigidBodyState per body).
    const GpuBuffer& states() const { return states_; }
    // Read-back (waits for the queue).
    std::vector<gpu::RigidBodyState> readStates() const { return states_.downloadArray<gpu::RigidBodyState>(); }

    // The push constants of one frame with `settings` (also what the CPU reference steps with).
    // colliderCount: the scene's colliders (the bodies test no body's entry).
    static gpu::RigidPush framePush(const SolverSettings& settings, uint32_t bodyCount, uint32_t colliderCount);

private:
    const ColliderSet& colliders_;
    uint32_t bodyCount_ = 0;
    std::vector<uint32_t> roundStarts_;
    uint32_t pairCount_ = 0;
    // RigidPath::Auto's limit depends on the device: a CPU device pays a
    // large fixed cost a dispatch but runs a workgroup on one core, so one
    // workgroup wins only while the bodies are few enough for one core (up
    // to 4 measured); a GPU pays little a dispatch and runs the per-substep
    // path's bodies and pairs side by side (up to 8 measured). The figures:
    // docs/physics.md §11, "Two dispatch paths, the same bits".
    bool cpuDevice_ = false;
    uint64_t itemLoopBound_ = 0;  // rigidItemLoopBound of this world's bodies and colliders
    GpuBuffer bodies_, states_, points_, shapes_, pairs_;
    std::unique_ptr<ComputeKernel> step_, pairKernel_, collidersKernel_;
    uint32_t stepPass_ = 0, contactsPass_ = 0, pairsPass_ = 0, positionsPass_ = 0, collidersPass_ = 0;
};

}  // namespace vksim
