#include "solvers/pbd/iteration_stages.h"

#include <string>

#include "contacts/contact_stage.h"
#include "shaders/pbd/pbd_types.h"
#include "shaders/shared/interaction_types.h"
#include "solvers/pbd/pbd_constraints.h"
#include "solvers/pbd/pbd_dispatch_path.h"
#include "solvers/pbd/workgroup_solve.h"
#include "state/collider_set.h"
#include "step/residual_tracker.h"

namespace vksim {

PbdIterationStages::PbdIterationStages(const VulkanContext& ctx, const PbdDeviceShape& device,
                                       const ParticleStore& particles, const ColliderSet& colliders,
                                       const PbdConstraints& constraints)
    : ctx_(ctx), particles_(particles), colliders_(colliders), constraints_(constraints) {
    projectMouse_ = std::make_unique<ComputeKernel>(ctx, "pbd/project_mouse.comp", sizeof(gpu::MousePush));
    if (constraints.shapeMatchGroupCount() > 0)
        projectShapeMatch_ = std::make_unique<ComputeKernel>(
            ctx, device.wide() ? "pbd/shape_match_256.comp" : "pbd/shape_match_16.comp", sizeof(gpu::ProjectPush));
}

PbdIterationStages::~PbdIterationStages() = default;

void PbdIterationStages::declareMouse(StepPlan& plan) {
    mousePass_ = plan.declare("pbd: mouse drag", StageKind::Diagnostic, "pbd");
}

void PbdIterationStages::declareShapeMatch(StepPlan& plan) {
    shapeMatchPass_ = plan.declare("pbd: shape matching", StageKind::Solve, "pbd");
}

void PbdIterationStages::declareTracking(StepPlan& plan) {
    residualPass_ = plan.declare("pbd: residual: stretch |C|", StageKind::Diagnostic, "pbd");
    energyPass_ = plan.declare("pbd: energy (xpbd)", StageKind::Diagnostic, "pbd");
}

// docs/physics.md §1, step 4 of one substep: n_s Gauss-Seidel iterations.
const GpuBuffer& PbdIterationStages::recordIterations(StepRecorder& rec, const SubstepContext& sub,
                                                      bool projectCollides, const Projections& project) {
    const uint32_t iterations = sub.frame.settings.pbd.iterations;
    const GpuBuffer& p = particles_.predicted();
    const std::optional<MouseAttachment>& mouse = sub.frame.mouse;
    const ContactSolve contactSolve = sub.frame.settings.contactSolve;
    for (uint32_t it = 0; it < iterations; ++it) {
        const StepPosition at{sub.substep, it};
        // The dragged particle onto the mouse target, kinematic for the
        // constraints that follow (one constraint, one thread).
        if (mouse && constraints_.range().contains(mouse->particle)) {
            gpu::MousePush push{};
            push.target = glm::vec4(mouse->target - constraints_.origin(), 1.0f);  // p is relative to it
            push.particle = mouse->particle;
            rec.run(mousePass_, *projectMouse_, {&particles_.positions(), &p}, 1, push, at, {&p, kPbdWorkingName});
        }
        project(it, at);
        // docs/physics.md §13: one workgroup per group.
        if (projectShapeMatch_) {
            const gpu::ProjectPush push{0, 0, it, iterations, sub.h, 0, 0, 0};
            rec.run(shapeMatchPass_, *projectShapeMatch_, {&p, &constraints_.shapeMatchData()},
                    constraints_.shapeMatchGroupCount() * projectShapeMatch_->workgroupSize(), push, at,
                    {&p, kPbdWorkingName});
        }
        if (sub.contacts)
            sub.contacts->recordProject(rec, contactSolve, particles_.positions(), p, at, kPbdWorkingName);
        if (colliders_.count() > 0 && !projectCollides)
            sub.stages.collideProject(rec, sub.stagePasses.collideProject, sub.particles, p, kPbdWorkingName, at);
        // Its attachments to bodies and colliders, after the collisions: the
        // attached particles end the iteration on their points, and the
        // exchange that follows gives the bodies what that moved.
        if (sub.attachments.any())
            sub.attachments.stage->record(rec, sub.attachments.pass, sub.particles, sub.attachments.slice, p,
                                          kPbdWorkingName, at);
        if (sub.bodies) sub.bodies->recordIteration(rec, sub.particles, at);
        if (sub.tracking) recordTracking(rec, *sub.frame.tracker, sub.h, it);
    }
    return p;
}

void PbdIterationStages::recordTracking(StepRecorder& rec, ResidualTracker& tracker, float h, uint32_t it) {
    const GpuBuffer& p = particles_.predicted();
    const PbdConstraints& c = constraints_;
    const uint32_t distanceCount = c.count(gpu::kPbdFamilyDistance);
    if (!residualDistance_) {
        residualDistance_ =
            std::make_unique<ComputeKernel>(ctx_, "pbd/residual_distance.comp", sizeof(gpu::ResidualPush));
        energy_ = std::make_unique<ComputeKernel>(ctx_, "pbd/energy.comp", sizeof(gpu::PbdEnergyPush));
    }
    if (distanceCount > 0) {
        const gpu::ResidualPush push{0, distanceCount, h, 0};
        rec.run(residualPass_, *residualDistance_, {&p, &c.constraints(gpu::kPbdFamilyDistance), &tracker.partials()},
                distanceCount, push);
        tracker.recordSum(rec, ResidualTracker::Series::Pbd, it, ResidualTracker::groupsFor(distanceCount),
                          1.0f / static_cast<float>(distanceCount), false);
        rec.barrier();
    }
    if (c.xpbdEnergyDefined()) {
        const gpu::PbdEnergyPush push{c.range().count,
                                      distanceCount,
                                      c.count(gpu::kPbdFamilyBending),
                                      c.count(gpu::kPbdFamilyAttachment),
                                      h,
                                      c.origin().x,
                                      c.origin().y,
                                      c.origin().z,
                                      c.count(gpu::kPbdFamilyTetrahedron),
                                      0,
                                      0,
                                      0};
        const uint32_t threads = push.particleCount + push.distanceCount + push.bendingCount + push.attachmentCount +
                                 push.tetrahedronCount;
        rec.run(energyPass_, *energy_,
                {&particles_.positions(), &particles_.velocities(), &p, &c.constraints(gpu::kPbdFamilyDistance),
                 &c.constraints(gpu::kPbdFamilyBending), &c.constraints(gpu::kPbdFamilyAttachment), &c.materials(),
                 &tracker.partials(), &c.constraints(gpu::kPbdFamilyTetrahedron)},
                threads, push);
        tracker.recordSum(rec, ResidualTracker::Series::PbdEnergy, it, ResidualTracker::groupsFor(threads), 1.0f,
                          false);
        rec.barrier();
    }
}

}  // namespace vksim
