#pragma once
// The rigid bodies of a world on the GPU (docs/physics.md §11): their
// body-frame constants, contact points and state, and the pass that steps
// them, "rigid: step", one dispatch per frame (every substep inside, one
// workgroup per body). Bodies touch the colliders, not the particles, so
// the stepper records them before the particle solvers.
#include <cstdint>
#include <memory>
#include <vector>

#include "rigid/rigid_model.h"
#include "scene/scene.h"
#include "shared/rigid_types.h"
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

    RigidSolver(const VulkanContext& ctx, const RigidModel& model, const ColliderSet& colliders);

    uint32_t bodyCount() const { return bodyCount_; }
    bool empty() const { return bodyCount_ == 0; }
    void declarePasses(StepPlan& plan);

    // Every substep of one frame. Records nothing without bodies.
    void recordFrame(StepRecorder& rec, const SolverSettings& settings);

    // Back to the model's initial state (waits for the queue).
    void reset(const RigidModel& model);

    // Read by the renderer as the bodies' transforms (RigidBodyState per body).
    const GpuBuffer& states() const { return states_; }
    // Read-back (waits for the queue).
    std::vector<gpu::RigidBodyState> readStates() const { return states_.downloadArray<gpu::RigidBodyState>(); }

    // The push constants of one frame with `settings` (also what the CPU reference steps with).
    static gpu::RigidPush framePush(const SolverSettings& settings, uint32_t bodyCount, uint32_t colliderCount);

private:
    const ColliderSet& colliders_;
    uint32_t bodyCount_ = 0;
    GpuBuffer bodies_, states_, points_;
    std::unique_ptr<ComputeKernel> step_;
    uint32_t stepPass_ = 0;
};

}  // namespace vksim
