#include "solvers/rigid/rigid_solver.h"

#include <stdexcept>

#include <fmt/format.h>
#include <glm/glm.hpp>

#include "solvers/rigid/rigid_path_choice.h"
#include "state/collider_set.h"
#include "vk/context.h"

namespace vksim {

static_assert(static_cast<uint32_t>(RigidContact::Impulse) == gpu::kRigidContactImpulse &&
              static_cast<uint32_t>(RigidContact::Quadratic) == gpu::kRigidContactQuadratic &&
              static_cast<uint32_t>(RigidContact::Barrier) == gpu::kRigidContactBarrier);

namespace {

// The step kernel both paths run; none without bodies.
std::unique_ptr<ComputeKernel> makeStepKernel(const VulkanContext& ctx, const RigidBodyBuffers& bodies,
                                              const ColliderSet& colliders) {
    if (bodies.empty()) return nullptr;
    // It evaluates SDFs (of the colliders, of the bodies' shapes).
    const SpecializationConstant shapes[] = {colliders.shapeSpecialization()};
    return std::make_unique<ComputeKernel>(ctx, "rigid/step_bodies.comp", sizeof(gpu::RigidPush), shapes);
}

}  // namespace

RigidSolver::RigidSolver(const VulkanContext& ctx, const RigidModel& model, const ColliderSet& colliders)
    : colliders_(colliders),
      cpuDevice_(ctx.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU),
      bodies_(ctx, model, colliders.sceneCount()),
      step_(makeStepKernel(ctx, bodies_, colliders)),
      pathInputs_{.bodies = &bodies_, .colliders = &colliders, .stepKernel = step_.get()},
      oneWorkgroup_(pathInputs_),
      perSubstep_(ctx, pathInputs_) {
    if (!empty() && colliders_.count() > colliders_.sceneCount())
        collidersKernel_ = std::make_unique<ComputeKernel>(ctx, "rigid/body_colliders.comp", sizeof(gpu::RigidPush));
}

RigidPath RigidSolver::pathFor(const SolverSettings& settings) const {
    return chooseRigidPath(settings.rigid.path, bodyCount(), cpuDevice_);
}

std::string RigidSolver::describePath(const SolverSettings& settings) const {
    const RigidDispatchPath& taken = path(settings);
    const bool chosen = settings.rigid.path == RigidPath::Auto;
    return fmt::format("rigid path: {}{}: {}\n", taken.name(), chosen ? " (\"auto\")" : "", taken.describe());
}

const RigidDispatchPath& RigidSolver::path(const SolverSettings& settings) const {
    if (pathFor(settings) == RigidPath::OneWorkgroup) return oneWorkgroup_;
    return perSubstep_;
}

void RigidSolver::declarePasses(StepPlan& plan) {
    if (empty()) return;
    oneWorkgroup_.declarePasses(plan);
    perSubstep_.declarePasses(plan);
    if (collidersKernel_) collidersPass_ = plan.declare(kCollidersPassName, StageKind::Solve, "rigid");
}

void RigidSolver::recordColliders(StepRecorder& rec) {
    if (!collidersKernel_) return;
    gpu::RigidPush push{};
    push.bodyCount = bodyCount();
    push.firstBodyCollider = colliders_.sceneCount();
    rec.run(collidersPass_, *collidersKernel_, {&bodies_.states(), &bodies_.shapes(), &colliders_.colliders()},
            bodyCount(), push);
}

gpu::RigidPush RigidSolver::framePush(const SolverSettings& settings, uint32_t bodyCount, uint32_t colliderCount) {
    gpu::RigidPush push{};
    push.gravity = glm::vec4(settings.gravity, 0.0f);
    push.dt = settings.timeStep / static_cast<float>(settings.substeps);
    push.bodyCount = bodyCount;
    push.colliderCount = colliderCount;
    push.linearDamping = settings.rigid.linearDamping;
    push.angularDamping = settings.rigid.angularDamping;
    push.restingSpeed = settings.rigid.restingSpeed;
    push.stencilStep = settings.stencilStep;
    push.integration = (settings.rigid.gyroscopic ? gpu::kRigidGyroscopic : 0u) |
                       (settings.rigid.integrator == RigidIntegrator::Midpoint ? gpu::kRigidMidpoint : 0u);
    push.penetrationSlop = settings.rigid.penetrationSlop;
    push.iterations = settings.rigid.iterations;
    push.contactModel = static_cast<uint32_t>(settings.rigid.contact);
    push.penaltyStiffness = settings.rigid.penaltyStiffness;
    push.barrierStrength = settings.rigid.barrierStrength;
    push.penaltyBuffer = settings.rigid.penaltyZone;
    push.dragTarget = glm::vec4(0.0f, 0.0f, 0.0f, -1.0f);  // no body dragged
    return push;
}

void RigidSolver::recordSubsteps(StepRecorder& rec, const SolverSettings& settings,
                                 const std::optional<BodyDrag>& drag, SubstepSpan substeps) {
    if (empty()) return;
    gpu::RigidPush push = framePush(settings, bodyCount(), colliders_.sceneCount());
    if (drag && drag->body < bodyCount()) {
        push.dragPoint = glm::vec4(drag->bodyPoint, kBodyDragTime);
        push.dragTarget = glm::vec4(drag->target, static_cast<float>(drag->body));
    }
    RigidDispatchPath& taken = path(settings);
    if (std::optional<std::string> misfit = taken.misfit(settings)) throw std::invalid_argument(*misfit);
    taken.record(rec, settings, push, substeps);
}

}  // namespace vksim
