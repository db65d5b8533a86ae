#pragma once
// The rigid bodies of a world on the GPU (docs/physics.md §11): their
// body-frame constants, contact points, shapes and state
// (RigidBodyBuffers), and the passes that step them on one of two paths
// (rigid_dispatch_path.h): for one body and a few, a frame in one workgroup
// (RigidOneWorkgroupPath, "rigid: step"); for more, per substep
// (RigidPerSubstepPath, "rigid: collider contacts", "rigid: body pairs",
// "rigid: positions"). Both orders are the same, so both paths give the
// same bits. Bodies touch the colliders, not the particles, so the stepper
// records them before the particle solvers.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scene/scene.h"
#include "shaders/rigid/rigid_types.h"
#include "solvers/rigid/rigid_body_buffers.h"
#include "solvers/rigid/rigid_dispatch_path.h"
#include "solvers/rigid/rigid_model.h"
#include "solvers/rigid/rigid_one_workgroup_path.h"
#include "solvers/rigid/rigid_per_substep_path.h"
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
    static constexpr const char* kCollidersPassName = "rigid: colliders";

    // Throws std::invalid_argument on a CPU device when a body has so many
    // contact points that one body or pair would outrun the driver's loop
    // limit (rigid_frame_items.h).
    RigidSolver(const VulkanContext& ctx, const RigidModel& model, const ColliderSet& colliders);
    RigidSolver(const RigidSolver&) = delete;
    RigidSolver& operator=(const RigidSolver&) = delete;

    // The path a frame with `settings` takes ("auto" resolved: chooseRigidPath).
    RigidPath pathFor(const SolverSettings& settings) const;
    // One line for a run's summary: the path a frame with `settings` takes,
    // whether "auto" chose it, and what it does.
    std::string describePath(const SolverSettings& settings) const;

    // As Solver::fewerPassesKeys.
    std::string fewerPassesKeys() const {
        return "/solver/rigid/iterations or \"path\": \"oneWorkgroup\" (/solver/rigid/path)";
    }

    uint32_t bodyCount() const { return bodies_.bodyCount(); }
    bool empty() const { return bodies_.empty(); }
    // Both paths' passes (a path is a setting, read each frame), then "rigid: colliders".
    void declarePasses(StepPlan& plan);

    // Every substep of one frame, with the dragged body if there is one.
    // Records nothing without bodies. Throws std::invalid_argument when the
    // frame's path cannot run `settings` (RigidDispatchPath::misfit).
    void recordFrame(StepRecorder& rec, const SolverSettings& settings, const std::optional<BodyDrag>& drag = {}) {
        recordSubsteps(rec, settings, drag, {0, settings.substeps});
    }
    // The frame's substeps `substeps` only (the stepper records them one at
    // a time where particles meet the bodies: docs/physics.md §11, "Two-way coupling").
    void recordSubsteps(StepRecorder& rec, const SolverSettings& settings, const std::optional<BodyDrag>& drag,
                        SubstepSpan substeps);
    // After recordFrame or recordSubsteps: every body's shape at its new
    // pose into the collider set's body entries, "rigid: colliders"
    // (nothing when the set has none: no particles to meet them).
    void recordColliders(StepRecorder& rec);
    // The bodies' buffers (what the two-way coupling reads and writes).
    const RigidBodyBuffers& buffers() const { return bodies_; }

    // Back to the model's initial state (waits for the queue).
    void reset(const RigidModel& model) { bodies_.reset(model); }
    // What reset() restores, for World::saveState(): the bodies' states.
    void addStateBuffers(std::vector<GpuBuffer*>& out) { bodies_.addStateBuffers(out); }

    // Read by the renderer as the bodies' transforms (RigidBodyState per body).
    const GpuBuffer& states() const { return bodies_.states(); }
    // Read-back (waits for the queue).
    std::vector<gpu::RigidBodyState> readStates() const {
        return bodies_.states().downloadArray<gpu::RigidBodyState>();
    }

    // The push constants of one frame with `settings` (also what the CPU reference steps with).
    // colliderCount: the scene's colliders (the bodies test no body's entry).
    static gpu::RigidPush framePush(const SolverSettings& settings, uint32_t bodyCount, uint32_t colliderCount);

private:
    RigidDispatchPath& path(const SolverSettings& settings) {
        return const_cast<RigidDispatchPath&>(std::as_const(*this).path(settings));
    }
    const RigidDispatchPath& path(const SolverSettings& settings) const;

    const ColliderSet& colliders_;
    // The device decides "auto" (rigid_path_choice.h).
    bool cpuDevice_ = false;
    RigidBodyBuffers bodies_;
    std::unique_ptr<ComputeKernel> step_, collidersKernel_;
    // What the paths read, and the paths in the order their passes are declared.
    RigidPathInputs pathInputs_;
    RigidOneWorkgroupPath oneWorkgroup_;
    RigidPerSubstepPath perSubstep_;
    uint32_t collidersPass_ = 0;
};

}  // namespace vksim
