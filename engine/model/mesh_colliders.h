#pragma once
// The model side of mesh colliders: their signed distance grids go into one
// buffer (SimModel::meshSdfGrids), each grid once however many colliders use
// it, and each mesh collider points at its grid (Collider.size.x); the
// surfaces they are drawn with go into SimModel::colliderSurfaces.
#include <vector>

#include "model/sim_model.h"
#include "scene/scene.h"

namespace vksim {

// model.colliders[i] must be the collider of descs[i] (toCollider in
// model_builder.cpp). Throws std::invalid_argument for a mesh collider
// without a grid, or grids too large for the buffer (signed_distance_grid.h).
void attachMeshColliders(const std::vector<ColliderDesc>& descs, SimModel& model);

// The same for the mesh bodies, after attachMeshColliders: their grids go
// after the colliders' (each grid once), model.rigid.shapes[b].size.x points
// at body b's. model.rigid must be built from `bodies`.
void attachMeshBodies(const std::vector<BodyDesc>& bodies, SimModel& model);

}  // namespace vksim
