#include "solvers/rigid/body_coupling.h"

#include <vector>

#include "solvers/rigid/rigid_body_buffers.h"
#include "solvers/rigid/rigid_solver.h"
#include "state/collider_set.h"
#include "state/particle_store.h"

namespace vksim {

BodyCoupling::BodyCoupling(const VulkanContext& ctx, const RigidSolver& rigid, const ParticleStore& particles,
                           const ColliderSet& colliders)
    : rigid_(rigid),
      particles_(particles),
      colliders_(colliders),
      firstBodyCollider_(colliders.sceneCount()),
      bodies_(ctx, "rigid/particle_impulses.comp", sizeof(gpu::CouplingPush)),
      follow_(ctx, "particle/follow_bodies.comp", sizeof(gpu::CouplingPush)),
      changes_(makeStorageBuffer<gpu::BodyChange>(
          ctx, std::vector<gpu::BodyChange>(rigid.bodyCount(), gpu::BodyChange{}),
          "body changes (coupling)")) {}

void BodyCoupling::declarePasses(StepPlan& plan) {
    bodiesPass_ = plan.declare(kBodiesPassName, StageKind::Solve, "rigid");
    particlesPass_ = plan.declare(kParticlesPassName, StageKind::Solve, "rigid");
}

void BodyCoupling::recordIteration(StepRecorder& rec, const gpu::ParticlePush& range, StepPosition at) const {
    gpu::CouplingPush push{};
    push.firstParticle = range.firstParticle;
    push.particleCount = range.particleCount;
    push.dt = range.dt;
    push.mode = gpu::kCouplingPositions;
    push.originX = range.originX;
    push.originY = range.originY;
    push.originZ = range.originZ;
    record(rec, push, at);
}

void BodyCoupling::recordSubstepEnd(StepRecorder& rec, float h, uint32_t substep) const {
    gpu::CouplingPush push{};
    push.particleCount = particles_.particleCount();
    push.dt = h;
    push.mode = gpu::kCouplingVelocities;
    record(rec, push, {substep});
}

void BodyCoupling::record(StepRecorder& rec, gpu::CouplingPush push, StepPosition at) const {
    const RigidBodyBuffers& bodies = rigid_.buffers();
    push.bodyCount = bodies.bodyCount();
    push.firstBodyCollider = firstBodyCollider_;
    const GpuBuffer& p = particles_.predicted();
    // One workgroup per body.
    rec.run(bodiesPass_, bodies_,
            {&bodies.bodies(), &bodies.states(), &particles_.positions(), &p, &particles_.bodyPushes(), &changes_,
             &bodies.shapes(), &colliders_.colliders(), &particles_.copyRunStarts(), &particles_.copyRuns()},
            bodies.bodyCount() * bodies_.workgroupSize(), push, at);
    rec.run(particlesPass_, follow_,
            {&particles_.positions(), &p, &particles_.velocities(), &particles_.bodyPushes(), &changes_},
            push.particleCount, push, at, {&particles_.velocities(), "velocity"}, {&p, "predicted position"});
}

}  // namespace vksim
