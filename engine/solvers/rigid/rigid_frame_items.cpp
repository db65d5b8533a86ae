#include "solvers/rigid/rigid_frame_items.h"

#include <algorithm>

namespace vksim {
namespace {

constexpr uint64_t kInvocations = 64;       // step_bodies.comp's workgroup
constexpr uint64_t kReductionPasses = 6 + 1;  // rigid_reduce.glsl: strides 32, 16, ..., 1, and the end

// rigid_math.glsl gyroscopicStep: three Newton steps, and the end.
constexpr uint64_t kGyroscopicPasses = 3 + 1;
uint64_t pointLoopPasses(uint32_t points) { return (points + kInvocations - 1) / kInvocations + 1; }

}  // namespace

uint64_t rigidItemLoopBound(uint32_t maxPoints, uint32_t colliderCount) {
    const uint64_t perCollider = pointLoopPasses(maxPoints) + kReductionPasses;
    const uint64_t body = uint64_t{colliderCount} + 1 + colliderCount * perCollider + kGyroscopicPasses;
    const uint64_t pair = 4 * perCollider;
    return 1 + std::max(body, pair);  // 1: the pass of the dispatch's loop over its items
}

RigidFrameItems rigidFrameItems(uint32_t bodyCount, uint32_t pairCount, uint32_t substeps, uint32_t iterations,
                                uint64_t itemLoopBound) {
    RigidFrameItems items;
    items.perSubstep = uint64_t{iterations} * (uint64_t{bodyCount} + pairCount) + bodyCount;
    items.total = uint64_t{substeps} * items.perSubstep;
    items.perDispatch = std::max<uint64_t>(1, kRigidDispatchLoopBudget / std::max<uint64_t>(1, itemLoopBound));
    return items;
}

}  // namespace vksim
