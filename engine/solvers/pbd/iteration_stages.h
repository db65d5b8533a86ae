#pragma once
// The passes around the constraint projections of a PBD iteration, shared
// by the dispatch paths: the mouse drag before them, shape matching
// (docs/physics.md §13) and the collision constraints after them, and the
// tracked substep's residual and XPBD energy after each iteration
// (docs/physics.md §12), which the workgroup path records too.
#include <cstdint>
#include <functional>
#include <memory>

#include "solvers/solver.h"
#include "vk/compute_kernel.h"

namespace vksim {

class ColliderSet;
class PbdConstraints;
class ResidualTracker;
class VulkanContext;
struct PbdDeviceShape;

class PbdIterationStages {
public:
    PbdIterationStages(const VulkanContext& ctx, const PbdDeviceShape& device, const ParticleStore& particles,
                       const ColliderSet& colliders, const PbdConstraints& constraints);
    ~PbdIterationStages();

    // Their passes, declared apart: the plan lists the paths' passes
    // between them (PbdSolver::declarePasses).
    void declareMouse(StepPlan& plan);
    void declareShapeMatch(StepPlan& plan);
    void declareTracking(StepPlan& plan);

    // Called with an iteration and its position: the path's projections
    // of the constraints in that iteration.
    using Projections = std::function<void(uint32_t iteration, StepPosition at)>;
    // One substep's n_s iterations, each the mouse drag, `project`, shape
    // matching, the collision constraints (unless `projectCollides`: the
    // path projects them itself) and, in the tracked substep, the
    // tracking. Returns the buffer of the solved positions.
    const GpuBuffer& recordIterations(StepRecorder& rec, const SubstepContext& sub, bool projectCollides,
                                      const Projections& project);
    // The residual (mean |C| of the distance constraints) and, where it is
    // defined, the XPBD objective g(p), after iteration `iteration`.
    void recordTracking(StepRecorder& rec, ResidualTracker& tracker, float h, uint32_t iteration);

private:
    const VulkanContext& ctx_;
    const ParticleStore& particles_;
    const ColliderSet& colliders_;
    const PbdConstraints& constraints_;
    uint32_t mousePass_ = 0, shapeMatchPass_ = 0, residualPass_ = 0, energyPass_ = 0;
    std::unique_ptr<ComputeKernel> projectMouse_;
    // One workgroup per shape-matching group, as wide as the workgroup
    // solve's, so that both paths add its sums by the same tree; only where
    // there are groups.
    std::unique_ptr<ComputeKernel> projectShapeMatch_;
    // Built the first time a frame tracks residuals.
    std::unique_ptr<ComputeKernel> residualDistance_, energy_;
};

}  // namespace vksim
