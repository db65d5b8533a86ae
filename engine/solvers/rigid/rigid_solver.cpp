#include "solvers/rigid/rigid_solver.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>
#include <glm/glm.hpp>

#include "solvers/rigid/rigid_frame_items.h"
#include "state/collider_set.h"
#include "vk/context.h"

namespace vksim {

static_assert(static_cast<uint32_t>(RigidContact::Impulse) == gpu::kRigidContactImpulse &&
              static_cast<uint32_t>(RigidContact::Quadratic) == gpu::kRigidContactQuadratic &&
              static_cast<uint32_t>(RigidContact::Barrier) == gpu::kRigidContactBarrier);

RigidSolver::RigidSolver(const VulkanContext& ctx, const RigidModel& model, const ColliderSet& colliders)
    : colliders_(colliders),
      bodyCount_(model.bodyCount()),
      roundStarts_(model.roundStarts),
      pairCount_(static_cast<uint32_t>(model.pairs.size())),
      cpuDevice_(ctx.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
    if (empty()) return;
    uint32_t widest = 0;  // the body with the most contact points
    for (uint32_t b = 1; b < bodyCount_; ++b)
        if (model.bodies[b].pointCount > model.bodies[widest].pointCount) widest = b;
    itemLoopBound_ = rigidItemLoopBound(model.bodies[widest].pointCount, colliders_.sceneCount());
    // Past the budget a lone item would be cut short on a CPU driver
    // (rigid_frame_items.h); a GPU has no such limiter.
    if (cpuDevice_ && itemLoopBound_ > kRigidDispatchLoopBudget)
        throw std::invalid_argument(fmt::format(
            "body \"{}\": {} contact points against {} colliders need up to {} loop passes in one workgroup, more "
            "than a CPU Vulkan driver (lavapipe) runs in one shader invocation ({}); use fewer points",
            model.names[widest], model.bodies[widest].pointCount, colliders_.sceneCount(), itemLoopBound_,
            kRigidDispatchLoopBudget));
    bodies_ = makeStorageBuffer<gpu::RigidBody>(ctx, model.bodies, "rigid bodies");
    states_ = makeStorageBuffer<gpu::RigidBodyState>(ctx, model.states, "rigid body states",
                                                     VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    points_ = makeStorageBuffer<glm::vec4>(ctx, model.points, "rigid contact points");
    shapes_ = makeStorageBuffer<gpu::Collider>(ctx, model.shapes, "rigid body shapes");
    pairs_ = makeStorageBuffer<glm::uvec2>(ctx, model.pairs, "rigid body pairs");
    // Both evaluate SDFs (of the colliders, of the bodies' shapes).
    const SpecializationConstant shapes[] = {colliders_.shapeSpecialization()};
    step_ = std::make_unique<ComputeKernel>(ctx, "rigid/step_bodies.comp", sizeof(gpu::RigidPush), shapes);
    pairKernel_ = std::make_unique<ComputeKernel>(ctx, "rigid/body_pairs.comp", sizeof(gpu::RigidPush), shapes);
    if (colliders_.count() > colliders_.sceneCount())
        collidersKernel_ = std::make_unique<ComputeKernel>(ctx, "rigid/body_colliders.comp", sizeof(gpu::RigidPush));
}

// Every pass either path can record: the path is a setting, read each frame.
void RigidSolver::declarePasses(StepPlan& plan) {
    if (empty()) return;
    stepPass_ = plan.declare(kStepPassName, StageKind::Solve, "rigid");
    contactsPass_ = plan.declare(kContactsPassName, StageKind::Solve, "rigid");
    pairsPass_ = plan.declare(kPairsPassName, StageKind::Solve, "rigid");
    positionsPass_ = plan.declare(kPositionsPassName, StageKind::Solve, "rigid");
    if (collidersKernel_) collidersPass_ = plan.declare(kCollidersPassName, StageKind::Solve, "rigid");
}

void RigidSolver::recordColliders(StepRecorder& rec) {
    if (!collidersKernel_) return;
    gpu::RigidPush push{};
    push.bodyCount = bodyCount_;
    push.firstBodyCollider = colliders_.sceneCount();
    rec.run(collidersPass_, *collidersKernel_, {&states_, &shapes_, &colliders_.colliders()}, bodyCount_, push);
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

bool RigidSolver::oneWorkgroup(const SolverSettings& settings) const {
    switch (settings.rigid.path) {
        case RigidPath::OneWorkgroup: return true;
        case RigidPath::PerSubstep: return bodyCount_ == 1;
        case RigidPath::Auto:
            return bodyCount_ <= (cpuDevice_ ? kOneWorkgroupBodiesCpu : kOneWorkgroupBodiesGpu);
    }
    return false;
}

void RigidSolver::recordFrame(StepRecorder& rec, const SolverSettings& settings, const std::optional<BodyDrag>& drag) {
    if (empty()) return;
    gpu::RigidPush push = framePush(settings, bodyCount_, colliders_.sceneCount());
    if (drag && drag->body < bodyCount_) {
        push.dragPoint = glm::vec4(drag->bodyPoint, kBodyDragTime);
        push.dragTarget = glm::vec4(drag->target, static_cast<float>(drag->body));
    }
    // The non-finite replay's probe checks the states after every pass (finite_probe.h).
    const ProbedBuffer probed{&states_, "state", ProbedElements::Bodies};
    auto stepBodies = [&](uint32_t pass, uint32_t threads, StepPosition at = {}) {
        rec.run(pass, *step_,
                {&bodies_, &states_, &points_, &colliders_.meshSdfGrids(), &shapes_, &pairs_, &colliders_.colliders()},
                threads, push, at, probed);
    };
    if (oneWorkgroup(settings)) {
        // One workgroup runs the frame's items, as many a dispatch as stay
        // within a CPU driver's loop limit (rigid_frame_items.h).
        const RigidFrameItems items =
            rigidFrameItems(bodyCount_, pairCount_, settings.substeps, settings.rigid.iterations, itemLoopBound_);
        if (items.perSubstep + items.perDispatch > std::numeric_limits<uint32_t>::max())
            throw std::invalid_argument(fmt::format(
                "solver.rigid: {} bodies with {} iterations make {} items a substep, more than the one-workgroup path "
                "counts (2^32); use \"path\": \"perSubstep\"",
                bodyCount_, settings.rigid.iterations, items.perSubstep));
        push.phase = gpu::kRigidPhaseItems;
        push.pairCount = pairCount_;
        for (uint64_t first = 0; first < items.total; first += items.perDispatch) {
            // Counted from the substep's start: the shader finds an item's place modulo perSubstep.
            push.first = static_cast<uint32_t>(first % items.perSubstep);
            push.itemCount = static_cast<uint32_t>(std::min(items.perDispatch, items.total - first));
            stepBodies(stepPass_, step_->workgroupSize());
        }
        rec.countWork({.rigidOneWorkgroup = double(settings.substeps) * settings.rigid.iterations *
                                            (double(bodyCount_) + double(pairCount_))});
        return;
    }
    const uint32_t perBody = bodyCount_ * step_->workgroupSize();  // one workgroup per body
    for (uint32_t substep = 0; substep < settings.substeps; ++substep) {
        for (uint32_t iteration = 0; iteration < settings.rigid.iterations; ++iteration) {
            push.phase = gpu::kRigidPhaseContacts;
            push.integrate = iteration == 0 ? 1u : 0u;
            stepBodies(contactsPass_, perBody, {substep, iteration});
            for (size_t round = 0; round + 1 < roundStarts_.size(); ++round) {
                push.first = roundStarts_[round];
                push.pairCount = roundStarts_[round + 1] - roundStarts_[round];
                // One workgroup per pair.
                rec.run(pairsPass_, *pairKernel_, {&bodies_, &states_, &points_, &colliders_.meshSdfGrids(), &shapes_, &pairs_},
                        push.pairCount * pairKernel_->workgroupSize(), push, {substep, iteration}, probed);
                rec.countWork({.rigidPairs = double(push.pairCount)});
            }
        }
        push.phase = gpu::kRigidPhasePositions;
        stepBodies(positionsPass_, perBody, {substep, {}});
    }
}

void RigidSolver::reset(const RigidModel& model) {
    if (!empty()) states_.uploadArray<gpu::RigidBodyState>(model.states);
}

}  // namespace vksim
