#pragma once
// The geometry of a rectangular cloth (scene.h ClothObject): vertices,
// triangles and the stretch/shear edges, in the object's local indexing.
// Each solver's model builder turns it into particles and elements.
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "scene/scene.h"

namespace vksim {

struct ClothGridMesh {
    uint32_t columns = 0;  // vertices along local X
    uint32_t rows = 0;     // vertices along local Z
    std::vector<glm::dvec3> positions;  // world space; vertex (column, row) is row * columns + column
    // 3 indices per triangle, counter-clockwise seen from local +Y (normals
    // point up in the object frame). Quads alternate their diagonal in a
    // checkerboard so the cloth has no preferred shear direction.
    std::vector<uint32_t> triangles;
    // Every structural edge (along X, then along Z) and both diagonals of
    // every quad. Listed family by family, each in row-major order: greedy
    // colouring in this order gives the minimum for a grid, 8 colours
    // (2 per family).
    std::vector<std::array<uint32_t, 2>> stretchEdges;
};

// Throws std::invalid_argument when the grid cannot be built (fewer than 2
// vertices along an axis, a non-finite or zero rotation quaternion).
ClothGridMesh buildClothGrid(const ClothObject& cloth);

inline uint32_t gridVertex(const ClothGridMesh& mesh, uint32_t column, uint32_t row) {
    return row * mesh.columns + column;
}

}  // namespace vksim
