#include "solvers/pbd/workgroup_path.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "contacts/contact_model.h"
#include "contacts/contact_stage.h"
#include "shaders/pbd/pbd_types.h"
#include "shaders/shared/interaction_types.h"
#include "solvers/pbd/iteration_stages.h"
#include "solvers/pbd/pbd_constraints.h"
#include "solvers/pbd/workgroup_contacts.h"
#include "solvers/pbd/workgroup_plan.h"
#include "solvers/pbd/workgroup_solve.h"

namespace vksim {

// Shared memory holds 12 bytes a particle (workgroup_plan.h), and shape
// matching's scratch takes some of it in an object that has it.
WorkgroupPath::WorkgroupPath(const VulkanContext& ctx, const PbdModelView& model, const ClusterPlan& arrays,
                             const PbdDeviceShape& device, const PbdConstraints& constraints,
                             const WorkgroupSolve& solve, PbdIterationStages& stages,
                             const ContactModel* contacts)
    : constraints_(constraints),
      solve_(solve),
      stages_(stages),
      capacity_(workgroupParticleCapacity(device.sharedBytes)),
      misfit_(workgroupMisfit(model, capacity_, shapeMatchScratchParticles(device.workgroupWidth))),
      stepsSubsteps_(hasContacts(model.shared, constraints.range())) {
    if (constraints.range().count == 0 || misfit_) return;
    WorkgroupPlan plan = buildWorkgroupPlan(model, arrays);
    workgroupCount_ = static_cast<uint32_t>(plan.objects.size());
    // The contact particles as the stepper's contact stage numbers them.
    const bool withContacts = stepsSubsteps_ && contacts && !contacts->empty();
    if (withContacts)
        contactLists_ = makeStorageBuffer<uint32_t>(
            ctx, layOutWorkgroupContactLists(*contacts, plan.objects, device.workgroupWidth),
            "workgroup contact lists");
    // An iteration's contacts take a barrier per colour at most.
    const uint32_t contactBarriers = withContacts ? gpu::kContactColours : 0u;
    for (const gpu::WorkgroupObject& object : plan.objects)
        barriersPerIteration_ = std::max(barriersPerIteration_, object.phaseCount + 3 + contactBarriers);
    plan_ = makeWorkgroupPlanBuffer(ctx, plan.objects, plan.phases, "workgroup plan");
    if (!model.pbd.tetrahedra.empty()) maxBarriersPerDispatch_ = 512;
}

void WorkgroupPath::declarePasses(StepPlan& plan) {
    pass_ = plan.declare(std::string(kPassName), StageKind::Solve, "pbd");
}

std::string WorkgroupPath::describe() const {
    return fmt::format(": {} workgroup(s), one per object", workgroupCount_);
}

bool WorkgroupPath::recordsWholeFrames() const { return solve_.built() && !stepsSubsteps_; }

gpu::WorkgroupSolvePush WorkgroupPath::framePush(const FrameInputs& frame, const gpu::ParticlePush& particles) const {
    gpu::WorkgroupSolvePush push{};
    push.particles = particles;
    push.iterations = frame.settings.pbd.iterations;
    push.mouseParticle = gpu::kNoParticle;
    if (frame.mouse && constraints_.range().contains(frame.mouse->particle)) {
        push.mouseParticle = frame.mouse->particle;
        push.mouseTarget = glm::vec4(frame.mouse->target - constraints_.origin(), 1.0f);  // p is relative to it
    }
    return push;
}

// The contacts between objects are detected once per substep on every
// solver's predicted positions, so with contacts the stepper predicts (the
// same math as the kernel's prediction: particle/*.glsl), the kernel runs
// the substep's iterations from the predicted positions in device memory,
// the contacts within each object in them where they are solved by colours
// (by the Jacobi average, every contact after the solve), and leaves its
// solved positions there; the stepper projects every contact after the
// solve and updates the velocities. The kernel's iterations project the
// collisions, so the stepper does not (projectsCollisionsInSolve).
const GpuBuffer& WorkgroupPath::recordSolve(StepRecorder& rec, const SubstepContext& sub) {
    gpu::WorkgroupSolvePush push = framePush(sub.frame, sub.particles);
    std::optional<WorkgroupContactBuffers> contacts;
    if (sub.contacts && contactLists_ && sub.frame.settings.contactSolve == ContactSolve::Colours) {
        contacts.emplace(WorkgroupContactBuffers{*sub.contacts, contactLists_});
        push.contactCapacity = sub.contacts->model().capacity;
    }
    const WorkgroupContactBuffers* bound = contacts ? &*contacts : nullptr;
    const uint32_t iterations = sub.frame.settings.pbd.iterations;
    if (!sub.tracking) {
        recordIterationRuns(rec, push, iterations, 0, {sub.substep}, bound);
    } else {
        for (uint32_t it = 0; it < iterations; ++it) {
            recordRun(rec, push, 1, it, it + 1, 0, {sub.substep, it}, bound);
            stages_.recordTracking(rec, *sub.frame.tracker, sub.h, it);
        }
    }
    return solve_.predicted();
}

// The frame in one dispatch. With residual tracking, the last substep is
// split so that the diagnostics can read the positions after each
// iteration: its iterations one dispatch each (the first one predicting),
// then one that only finishes it. The kernel resumes from the predicted
// positions and the multipliers in device memory, so the split frame
// computes what the whole one does.
void WorkgroupPath::recordFrame(StepRecorder& rec, const FrameInputs& frame, const gpu::ParticlePush& particles) {
    const SolverSettings& settings = frame.settings;
    const gpu::WorkgroupSolvePush push = framePush(frame, particles);
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
    for (uint32_t s = 0; s < substeps; ++s) recordIterationRuns(rec, push, iterations, whole, {});
}

void WorkgroupPath::recordIterationRuns(StepRecorder& rec, const gpu::WorkgroupSolvePush& push, uint32_t iterations,
                                        uint32_t stages, StepPosition at, const WorkgroupContactBuffers* contacts) {
    // The first run of a substep with contacts lists them first, in 5
    // barriers (listObjectContacts in pbd/workgroup_contacts.glsl).
    const uint32_t listing = contacts ? 5u : 0u;
    const uint32_t chunk = std::max(1u, (maxBarriersPerDispatch_ - listing) / barriersPerIteration_);
    for (uint32_t it = 0; it < iterations; it += chunk) {
        const uint32_t end = std::min(it + chunk, iterations);
        const uint32_t runStages = (it == 0 ? stages & gpu::kStagePredictFirst : 0u) |
                                   (end == iterations ? stages & gpu::kStageFinishLast : 0u);
        recordRun(rec, push, 1, it, end, runStages, at, contacts);
    }
}

void WorkgroupPath::recordRun(StepRecorder& rec, gpu::WorkgroupSolvePush push, uint32_t substeps,
                              uint32_t firstIteration, uint32_t lastIterationEnd, uint32_t stages, StepPosition at,
                              const WorkgroupContactBuffers* contacts) {
    push.substeps = substeps;
    push.firstIteration = firstIteration;
    push.lastIterationEnd = lastIterationEnd;
    push.stages = stages;
    solve_.run(rec, pass_, solve_.kernel(), plan_, workgroupCount_, push, at, nullptr, contacts);
    // Each workgroup projects its object's constraints in turn, the objects
    // side by side: an average object's share (the estimate stays low).
    const double constraints = double(constraints_.totalCount());
    rec.countWork({.pbdWorkgroupConstraints = double(substeps) * (lastIterationEnd - firstIteration) * constraints /
                                              std::max(workgroupCount_, 1u)});
}

}  // namespace vksim
