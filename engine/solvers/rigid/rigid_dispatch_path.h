#pragma once
// One way to dispatch a frame of the rigid bodies (docs/physics.md §11,
// "Two dispatch paths, the same bits"): both paths run the same items in
// the same order and give the same bits, in their own passes. RigidSolver
// holds one of each, chooses one per frame (rigid_path_choice.h) and records
// the chosen one; the plan declares the passes of both.
#include <optional>
#include <string>
#include <string_view>

#include "scene/scene.h"
#include "shaders/rigid/rigid_types.h"
#include "step/step_plan.h"
#include "step/step_recorder.h"
#include "vk/compute_kernel.h"

namespace vksim {

class ColliderSet;
class RigidBodyBuffers;

// Substeps [first, first + count) of a frame: the whole frame, or one at a
// time where the particles exchange impulses with the bodies after each
// (docs/physics.md §11, "Two-way coupling").
struct SubstepSpan {
    uint32_t first = 0;
    uint32_t count = 0;
};

// What both paths record with: the bodies, the colliders they meet, and
// the kernel that steps bodies (rigid/step_bodies.comp, one pipeline for
// both paths: its phase is a push constant).
struct RigidPathInputs {
    const RigidBodyBuffers* bodies = nullptr;
    const ColliderSet* colliders = nullptr;
    const ComputeKernel* stepKernel = nullptr;

    // One run of the step kernel under `pass` over `threads` threads. The
    // non-finite replay's probe checks the states after it (finite_probe.h).
    void stepBodies(StepRecorder& rec, uint32_t pass, uint32_t threads, const gpu::RigidPush& push,
                    StepPosition at = {}) const;
    // What the replay's probe reads after every rigid pass.
    ProbedBuffer probedStates() const;
};

class RigidDispatchPath {
public:
    virtual ~RigidDispatchPath() = default;

    // Its name in the scene format ("path") and a line on what it does.
    virtual std::string_view name() const = 0;
    virtual std::string_view describe() const = 0;
    virtual void declarePasses(StepPlan& plan) = 0;
    // Why it cannot run a frame with `settings`, if it cannot.
    virtual std::optional<std::string> misfit(const SolverSettings& settings) const {
        (void)settings;
        return std::nullopt;
    }
    // The substeps `substeps` of one frame; `push` is the frame's (RigidSolver::framePush, with the drag).
    virtual void record(StepRecorder& rec, const SolverSettings& settings, gpu::RigidPush push,
                        SubstepSpan substeps) = 0;
};

}  // namespace vksim
