#pragma once
// The scene's colliders in the model: each one's GPU description, and for
// mesh colliders their signed distance grids in one buffer
// (SharedModel::meshSdfGrids), each grid once however many colliders use it,
// each mesh collider pointing at its grid (Collider.size.x), and the
// surfaces they are drawn with (SharedModel::colliderSurfaces).
#include <vector>

#include "model/shared_model.h"
#include "scene/scene.h"

namespace vksim {

// A collider's GPU description (rotation normalised). For a mesh collider
// size.x, the offset of its grid, is left 0: attachMeshColliders sets it.
gpu::Collider toCollider(const ColliderDesc& desc);

// model.colliders[i] must be the collider of descs[i] (toCollider). Throws
// std::invalid_argument for a mesh collider
// without a grid, or grids too large for the buffer (signed_distance_grid.h).
void attachMeshColliders(const std::vector<ColliderDesc>& descs, SharedModel& model);

// The tracks of the kinematic colliders (keyframes, or a parent) and their
// frames (SharedModel::keyframeTracks, keyframes), rotations normalised,
// each with its parent's track; and their rows (model.colliders, built
// first) at their first pose in the world. Throws std::invalid_argument for
// a parent that is not an earlier kinematic collider.
void buildKeyframeTracks(const std::vector<ColliderDesc>& descs, SharedModel& model);

}  // namespace vksim
