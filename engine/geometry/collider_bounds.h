#pragma once
// The bounding sphere collision generation culls by (docs/physics.md §3,
// "Culling by bounds"): for a collider whose local origin is c, a radius R
// such that its signed distance, as sdf.glsl evaluates it, is at least
// |p - c| - R everywhere. A particle whose bound says it is farther than the
// collision margin skips the collider's SDF and gradient. Stored in the
// collider's position.w; negative means unbounded (a plane, or a collider
// whose bound is not computed: it is never culled).
#include <span>
#include <vector>

#include "shaders/shared/sim_types.h"

namespace vksim {

// R of `collider` (its type and size; a mesh collider's grid at size.x of
// `meshSdfGrids`), or -1 for a plane.
float colliderBoundRadius(const gpu::Collider& collider, std::span<const float> meshSdfGrids);

// Writes R into position.w of each collider.
void setColliderBounds(std::vector<gpu::Collider>& colliders, std::span<const float> meshSdfGrids);

}  // namespace vksim
