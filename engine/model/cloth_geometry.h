#pragma once
// The vertices, triangles, stretch edges, pins and mass distribution of a
// cloth object, whatever it is made from: a grid ("type": "cloth",
// cloth_grid.h) or a triangle mesh file ("type": "mesh", ClothMeshSource).
// Each solver's model builder turns it into particles and elements the same
// way for both.
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "scene/scene.h"

namespace vksim {

struct ClothGeometry {
    std::vector<glm::dvec3> positions;  // world space
    std::vector<uint32_t> triangles;    // 3 per triangle
    // Grid: structural and shear edges (cloth_grid.h); mesh: every edge of
    // the triangles (triangle_mesh.h findMeshEdges).
    std::vector<std::array<uint32_t, 2>> stretchEdges;
    std::vector<bool> pinned;
    // Each vertex's fraction of the object's mass. Empty: equal shares (the
    // grid, whose vertices are evenly spaced); a mesh lumps by area, each
    // triangle giving a third of its area's share to each corner, so that a
    // finely meshed region is not heavier than a coarse one.
    std::vector<double> massShares;
};

// Throws std::invalid_argument for what cannot be built (a zero rotation, a
// pin outside the grid, a mesh without area).
ClothGeometry buildClothGeometry(const ClothObject& cloth);

}  // namespace vksim
