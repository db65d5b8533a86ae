#pragma once
// The one-workgroup rigid path's frame as a sequence of items, and how many
// of them one dispatch may run (docs/physics.md §11, "Two dispatch paths").
// Per substep: `iterations` times every body's collider contacts (the first
// time after its velocity update) then every pair in their rounds' order,
// then every body's positions (rigid/step_bodies.comp, frameItem). Every item
// loads its bodies' states and stores them, so the frame may be cut into
// dispatches after any item and gives the same bits.
//
// Why cut it: llvmpipe (lavapipe) stops every loop of a shader invocation
// once the invocation has run 65,535 loop passes in all (gallivm's loop
// limiter, LP_MAX_TGSI_LOOP_ITERATIONS, shared by every loop, there to end
// infinite loops). It says nothing: the passes past it are skipped, and a
// frame of 60 bodies in one dispatch left its last bodies unmoved. So a
// dispatch runs only as many items as surely stay below it.
#include <cstdint>

namespace vksim {

// The loop passes one dispatch may spend: gallivm's 65,535, less room for
// the dispatch's own loop over its items.
inline constexpr uint64_t kRigidDispatchLoopBudget = 65'000;

// An upper bound of the loop passes of any one item of a world whose
// bodies have at most `maxPoints` contact points, with `colliderCount`
// scene colliders. Every loop of an item counts its trips + 1 (the pass
// that finds the end): a body's loop over the colliders, per collider its
// loop over the points (point k to invocation k % 64) and its 64-invocation
// reduction (6 halvings), and its velocity update's gyroscopic Newton loop;
// a pair's four loops over points, each with its
// reduction. Whoever adds a loop to an item adds it here.
uint64_t rigidItemLoopBound(uint32_t maxPoints, uint32_t colliderCount);

// How the items of one frame are dispatched.
struct RigidFrameItems {
    uint64_t perSubstep = 0;    // iterations * (bodies + pairs) + bodies
    uint64_t total = 0;         // substeps * perSubstep
    uint64_t perDispatch = 0;   // at least 1
    uint64_t dispatches() const { return (total + perDispatch - 1) / perDispatch; }
};

// `itemLoopBound` from rigidItemLoopBound; more than the budget still gives
// one item a dispatch (a device without the limiter runs it whole).
RigidFrameItems rigidFrameItems(uint32_t bodyCount, uint32_t pairCount, uint32_t substeps, uint32_t iterations,
                                uint64_t itemLoopBound);

}  // namespace vksim
