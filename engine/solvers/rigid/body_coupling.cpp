#include "solvers/rigid/body_coupling.h"

#include <algorithm>
#include <vector>

#include <glm/glm.hpp>

#include "model/shared_model.h"

#include "solvers/rigid/rigid_body_buffers.h"
#include "solvers/rigid/rigid_solver.h"
#include "state/collider_set.h"
#include "state/particle_store.h"

namespace vksim {
namespace {

// Each batch copy's particles as runs of consecutive particles with
// consecutive indices in the copy (an object, or objects side by side), in
// index order: run r is (first particle, its index in the copy, count, 0),
// copy k's runs are [starts[k], starts[k + 1]). What a body of copy k walks
// to sum its copy's particles in its World's order without reading the
// other copies' (rigid/particle_impulses.comp). One run in a scene's world.
struct CopyParticleRuns {
    std::vector<uint32_t> starts;
    std::vector<glm::uvec4> runs;
};

CopyParticleRuns copyParticleRuns(const std::vector<glm::uvec2>& copies) {
    uint32_t copyCount = 1;
    for (const glm::uvec2& c : copies) copyCount = std::max(copyCount, c.x + 1);
    std::vector<std::vector<glm::uvec4>> perCopy(copyCount);
    for (uint32_t i = 0; i < copies.size(); ++i) {
        std::vector<glm::uvec4>& runs = perCopy[copies[i].x];
        if (!runs.empty() && runs.back().x + runs.back().z == i && runs.back().y + runs.back().z == copies[i].y)
            ++runs.back().z;
        else
            runs.emplace_back(i, copies[i].y, 1u, 0u);
    }
    CopyParticleRuns out;
    for (const std::vector<glm::uvec4>& runs : perCopy) {
        out.starts.push_back(static_cast<uint32_t>(out.runs.size()));
        out.runs.insert(out.runs.end(), runs.begin(), runs.end());
    }
    out.starts.push_back(static_cast<uint32_t>(out.runs.size()));
    if (out.runs.empty()) out.runs.emplace_back(0u);  // a buffer to bind where there are no particles
    return out;
}

}  // namespace

BodyCoupling::BodyCoupling(const VulkanContext& ctx, const SharedModel& model, const RigidSolver& rigid,
                           const ParticleStore& particles, const ColliderSet& colliders)
    : rigid_(rigid),
      particles_(particles),
      colliders_(colliders),
      firstBodyCollider_(colliders.sceneCount()),
      bodies_(ctx, "rigid/particle_impulses.comp", sizeof(gpu::CouplingPush)),
      follow_(ctx, "particle/follow_bodies.comp", sizeof(gpu::CouplingPush)),
      changes_(makeStorageBuffer<gpu::BodyChange>(
          ctx, std::vector<gpu::BodyChange>(rigid.bodyCount(), gpu::BodyChange{}),
          "body changes (coupling)")) {
    const CopyParticleRuns runs = copyParticleRuns(particleCopies(model));
    copyRunStarts_ = makeStorageBuffer<uint32_t>(ctx, runs.starts, "batch copies' particle run starts");
    copyRuns_ = makeStorageBuffer<glm::uvec4>(ctx, runs.runs, "batch copies' particle runs");
}

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
             &bodies.shapes(), &colliders_.colliders(), &copyRunStarts_, &copyRuns_},
            bodies.bodyCount() * bodies_.workgroupSize(), push, at);
    rec.run(particlesPass_, follow_,
            {&particles_.positions(), &p, &particles_.velocities(), &particles_.bodyPushes(), &changes_},
            push.particleCount, push, at, {&particles_.velocities(), "velocity"}, {&p, "predicted position"});
}

}  // namespace vksim
