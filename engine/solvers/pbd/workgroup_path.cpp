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
    for (const gpu::WorkgroupObject& object : plan.objects)
        barriersPerIteration_ = std::max(barriersPerIteration_, object.phaseCount + 3);
    plan_ = makeWorkgroupPlanBuffer(ctx, plan.objects, plan.phases, "workgroup plan");
    if (!model.pbd.tetrahedra.empty()) maxBarriersPerDispatch_ = 512;
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
    if (!frame.tracker) {
        recordSubsteps(rec, push, substeps, iterations);
        return;
    }
    if (substeps > 1) recordSubsteps(rec, push, substeps - 1, iterations);
    const uint32_t last = substeps - 1;
    for (uint32_t it = 0; it < iterations; ++it) {
        recordRun(rec, push, 1, it, it + 1, it == 0 ? gpu::kStagePredictFirst : 0u, {last, it});
        stages_.recordTracking(rec, *frame.tracker, particles.dt, it);
    }
    recordRun(rec, push, 1, iterations, iterations, gpu::kStageFinishLast, {last});
}

// lavapipe (Mesa 22.3) computes a dispatch of this kernel wrongly once it
// passes some 4000 workgroup barriers: measured on a 125-particle XPBD
// ball, 12 x 20 and 1 x 248 substeps x iterations
// matched the per-colour path and the CPU reference bit for bit and to
// 1e-6 m, 8 x 31, 16 x 16 and 1 x 300 parted from both by millimetres to
// centimetres in the first frame, deterministically (docs/physics.md §16,
// "XPBD for solids"; where in the driver is not known, the barrier count
// is what fits every case measured). The count depends on the kernel's
// work per barrier: with the Neo-Hookean C_D in singular values (an SVD
// per tetrahedron) a 1296-tetrahedron block came out wrong in one dispatch
// of ~1800 barriers and right in ~900. So a frame is cut into dispatches of
// whole substeps, or of a substep's iterations, of at most 2048 barriers,
// 512 where the solve holds XPBD solids' tetrahedra; the kernel resumes
// from the predicted positions and the multipliers in device memory, so
// the cut frame computes what the whole one does.
void WorkgroupPath::recordSubsteps(StepRecorder& rec, const gpu::WorkgroupSolvePush& push, uint32_t substeps,
                                   uint32_t iterations) {
    const uint32_t whole = gpu::kStagePredictFirst | gpu::kStageFinishLast;
    const uint64_t perSubstep = uint64_t{iterations} * barriersPerIteration_ + 2;
    if (perSubstep * substeps <= maxBarriersPerDispatch_) {
        recordRun(rec, push, substeps, 0, iterations, whole, {});
        return;
    }
    if (perSubstep <= maxBarriersPerDispatch_) {
        const uint32_t chunk = static_cast<uint32_t>(maxBarriersPerDispatch_ / perSubstep);
        for (uint32_t s = 0; s < substeps; s += chunk)
            recordRun(rec, push, std::min(chunk, substeps - s), 0, iterations, whole, {});
        return;
    }
    const uint32_t chunk = std::max(1u, maxBarriersPerDispatch_ / barriersPerIteration_);
    for (uint32_t s = 0; s < substeps; ++s)
        for (uint32_t it = 0; it < iterations; it += chunk) {
            const uint32_t end = std::min(it + chunk, iterations);
            const uint32_t stages =
                (it == 0 ? gpu::kStagePredictFirst : 0u) | (end == iterations ? gpu::kStageFinishLast : 0u);
            recordRun(rec, push, 1, it, end, stages, {});
        }
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
