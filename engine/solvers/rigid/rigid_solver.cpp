#include "solvers/rigid/rigid_solver.h"

#include <glm/glm.hpp>

#include "world/collider_set.h"

namespace vksim {

RigidSolver::RigidSolver(const VulkanContext& ctx, const RigidModel& model, const ColliderSet& colliders)
    : colliders_(colliders), bodyCount_(model.bodyCount()) {
    if (empty()) return;
    bodies_ = makeStorageBuffer<gpu::RigidBody>(ctx, model.bodies, "rigid bodies");
    states_ = makeStorageBuffer<gpu::RigidBodyState>(ctx, model.states, "rigid body states",
                                                     VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    points_ = makeStorageBuffer<glm::vec4>(ctx, model.points, "rigid contact points");
    step_ = std::make_unique<ComputeKernel>(ctx, "rigid/step_bodies.comp", sizeof(gpu::RigidPush));
}

void RigidSolver::declarePasses(StepPlan& plan) {
    if (!empty()) stepPass_ = plan.declare(kStepPassName, StageKind::Solve, "rigid");
}

gpu::RigidPush RigidSolver::framePush(const SolverSettings& settings, uint32_t bodyCount, uint32_t colliderCount) {
    gpu::RigidPush push{};
    push.gravity = glm::vec4(settings.gravity, 0.0f);
    push.dt = settings.timeStep / static_cast<float>(settings.substeps);
    push.substeps = settings.substeps;
    push.bodyCount = bodyCount;
    push.colliderCount = colliderCount;
    push.linearDamping = settings.rigid.linearDamping;
    push.angularDamping = settings.rigid.angularDamping;
    push.restingSpeed = settings.rigid.restingSpeed;
    push.stencilStep = settings.stencilStep;
    push.gyroscopic = settings.rigid.gyroscopic ? 1u : 0u;
    push.penetrationSlop = settings.rigid.penetrationSlop;
    return push;
}

void RigidSolver::recordFrame(StepRecorder& rec, const SolverSettings& settings) {
    if (empty()) return;
    const gpu::RigidPush push = framePush(settings, bodyCount_, colliders_.count());
    // One workgroup per body.
    rec.run(stepPass_, *step_, {&bodies_, &states_, &points_, &colliders_.colliders(), &colliders_.meshSdfGrids()},
            bodyCount_ * step_->workgroupSize(), push);
}

void RigidSolver::reset(const RigidModel& model) {
    if (!empty()) states_.uploadArray<gpu::RigidBodyState>(model.states);
}

}  // namespace vksim
