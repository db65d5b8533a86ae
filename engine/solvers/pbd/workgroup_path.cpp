#include "solvers/pbd/workgroup_path.h"

#include <algorithm>

#include <fmt/format.h>

#include "shaders/pbd/pbd_types.h"
#include "shaders/shared/interaction_types.h"
#include "solvers/pbd/iteration_stages.h"
#include "solvers/pbd/pbd_constraints.h"
#include "solvers/pbd/workgroup_plan.h"
#include "solvers/pbd/workgroup_solve.h"

namespace vksim {

// Shared memory holds 12 bytes a particle (workgroup_plan.h), and shape
// matching's scratch takes some of it in an object that has it.
WorkgroupPath::WorkgroupPath(const VulkanContext& ctx, const PbdModelView& model, const ClusterPlan& arrays,
                             const PbdDeviceShape& device, const PbdConstraints& constraints,
                             const WorkgroupSolve& solve, PbdIterationStages& stages)
    : constraints_(constraints),
      solve_(solve),
      stages_(stages),
      capacity_(workgroupParticleCapacity(device.sharedBytes)),
      misfit_(workgroupMisfit(model, capacity_, shapeMatchScratchParticles(device.workgroupWidth))) {
    if (constraints.range().count == 0 || misfit_) return;
    const WorkgroupPlan plan = buildWorkgroupPlan(model, arrays);
    workgroupCount_ = static_cast<uint32_t>(plan.objects.size());
    plan_ = makeWorkgroupPlanBuffer(ctx, plan.objects, plan.phases, "workgroup plan");
}

void WorkgroupPath::declarePasses(StepPlan& plan) {
    pass_ = plan.declare(std::string(kPassName), StageKind::Solve, "pbd");
}

std::string WorkgroupPath::describe() const {
    return fmt::format(": {} workgroup(s), one per object", workgroupCount_);
}

bool WorkgroupPath::recordsWholeFrames() const { return solve_.built(); }

// The frame in one dispatch. With residual tracking, the last substep is
// split so that the diagnostics can read the positions after each
// iteration: its iterations one dispatch each (the first one predicting),
// then one that only finishes it. The kernel resumes from the predicted
// positions and the multipliers in device memory, so the split frame
// computes what the whole one does.
void WorkgroupPath::recordFrame(StepRecorder& rec, const FrameInputs& frame, const gpu::ParticlePush& particles) {
    const SolverSettings& settings = frame.settings;
    gpu::WorkgroupSolvePush push{};
    push.particles = particles;
    push.iterations = settings.pbd.iterations;
    push.mouseParticle = gpu::kNoParticle;
    if (frame.mouse && constraints_.range().contains(frame.mouse->particle)) {
        push.mouseParticle = frame.mouse->particle;
        push.mouseTarget = glm::vec4(frame.mouse->target - constraints_.origin(), 1.0f);  // p is relative to it
    }
    const uint32_t substeps = settings.substeps, iterations = settings.pbd.iterations;
    const uint32_t whole = gpu::kStagePredictFirst | gpu::kStageFinishLast;
    if (!frame.tracker) {
        recordRun(rec, push, substeps, 0, iterations, whole, {});
        return;
    }
    if (substeps > 1) recordRun(rec, push, substeps - 1, 0, iterations, whole, {});
    const uint32_t last = substeps - 1;
    for (uint32_t it = 0; it < iterations; ++it) {
        recordRun(rec, push, 1, it, it + 1, it == 0 ? gpu::kStagePredictFirst : 0u, {last, it});
        stages_.recordTracking(rec, *frame.tracker, particles.dt, it);
    }
    recordRun(rec, push, 1, iterations, iterations, gpu::kStageFinishLast, {last});
}

void WorkgroupPath::recordRun(StepRecorder& rec, gpu::WorkgroupSolvePush push, uint32_t substeps,
                              uint32_t firstIteration, uint32_t lastIterationEnd, uint32_t stages, StepPosition at) {
    push.substeps = substeps;
    push.firstIteration = firstIteration;
    push.lastIterationEnd = lastIterationEnd;
    push.stages = stages;
    solve_.run(rec, pass_, solve_.kernel(), plan_, workgroupCount_, push, at);
    // Each workgroup projects its object's constraints in turn, the objects
    // side by side: an average object's share (the estimate stays low).
    const double constraints = double(constraints_.totalCount());
    rec.countWork({.pbdWorkgroupConstraints = double(substeps) * (lastIterationEnd - firstIteration) * constraints /
                                              std::max(workgroupCount_, 1u)});
}

}  // namespace vksim
