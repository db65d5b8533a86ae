#include "solvers/rigid/rigid_per_substep_path.h"

#include "solvers/rigid/rigid_body_buffers.h"
#include "state/collider_set.h"

namespace vksim {

RigidPerSubstepPath::RigidPerSubstepPath(const VulkanContext& ctx, const RigidPathInputs& inputs) : inputs_(inputs) {
    if (inputs_.bodies->empty()) return;
    // It evaluates SDFs (of the bodies' shapes).
    const SpecializationConstant shapes[] = {inputs_.colliders->shapeSpecialization()};
    pairKernel_ = std::make_unique<ComputeKernel>(ctx, "rigid/body_pairs.comp", sizeof(gpu::RigidPush), shapes);
}

void RigidPerSubstepPath::declarePasses(StepPlan& plan) {
    contactsPass_ = plan.declare(kContactsPassName, StageKind::Solve, "rigid");
    pairsPass_ = plan.declare(kPairsPassName, StageKind::Solve, "rigid");
    positionsPass_ = plan.declare(kPositionsPassName, StageKind::Solve, "rigid");
}

void RigidPerSubstepPath::record(StepRecorder& rec, const SolverSettings& settings, gpu::RigidPush push,
                                 SubstepSpan substeps) {
    const RigidBodyBuffers& bodies = *inputs_.bodies;
    const ColliderSet& colliders = *inputs_.colliders;
    const std::vector<uint32_t>& roundStarts = bodies.roundStarts();
    const uint32_t perBody = bodies.bodyCount() * inputs_.stepKernel->workgroupSize();  // one workgroup per body
    for (uint32_t substep = substeps.first; substep < substeps.first + substeps.count; ++substep) {
        for (uint32_t iteration = 0; iteration < settings.rigid.iterations; ++iteration) {
            push.phase = gpu::kRigidPhaseContacts;
            push.integrate = iteration == 0 ? 1u : 0u;
            inputs_.stepBodies(rec, contactsPass_, perBody, push, {substep, iteration});
            for (size_t round = 0; round + 1 < roundStarts.size(); ++round) {
                push.first = roundStarts[round];
                push.pairCount = roundStarts[round + 1] - roundStarts[round];
                // One workgroup per pair.
                rec.run(pairsPass_, *pairKernel_,
                        {&bodies.bodies(), &bodies.states(), &bodies.points(), &colliders.meshSdfGrids(),
                         &bodies.shapes(), &bodies.pairs()},
                        push.pairCount * pairKernel_->workgroupSize(), push, {substep, iteration},
                        inputs_.probedStates());
                rec.countWork({.rigidPairs = double(push.pairCount)});
            }
        }
        push.phase = gpu::kRigidPhasePositions;
        inputs_.stepBodies(rec, positionsPass_, perBody, push, {substep, {}});
    }
}

}  // namespace vksim
