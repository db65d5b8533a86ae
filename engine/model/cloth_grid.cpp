#include "model/cloth_grid.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "geometry/shared_math.h"
#include "io/quoted_input.h"

namespace vksim {
namespace {

glm::dvec4 unitQuaternion(const glm::vec4& q, const std::string& owner) {
    glm::dvec4 d(q);
    double norm = glm::length(d);
    if (!std::isfinite(norm) || norm < 1e-12)
        throw std::invalid_argument(fmt::format("{}: rotation quaternion ({}, {}, {}, {}) cannot be normalised",
                                                owner, q.x, q.y, q.z, q.w));
    return d / norm;
}

}  // namespace

ClothGridMesh buildClothGrid(const ClothObject& cloth) {
    const glm::uvec2 resolution = cloth.grid.resolution;
    if (resolution.x < 2 || resolution.y < 2)
        throw std::invalid_argument(fmt::format("cloth '{}': resolution {}x{} needs at least 2 vertices per axis",
                                                clipInput(cloth.name), resolution.x, resolution.y));
    const glm::dvec4 rotation = unitQuaternion(cloth.rotation, fmt::format("cloth '{}'", clipInput(cloth.name)));

    ClothGridMesh mesh;
    mesh.columns = resolution.x;
    mesh.rows = resolution.y;
    const glm::dvec2 size(cloth.grid.size);
    mesh.positions.reserve(size_t(mesh.columns) * mesh.rows);
    for (uint32_t row = 0; row < mesh.rows; ++row)
        for (uint32_t column = 0; column < mesh.columns; ++column) {
            glm::dvec3 local((double(column) / (mesh.columns - 1) - 0.5) * size.x, 0.0,
                             (double(row) / (mesh.rows - 1) - 0.5) * size.y);
            // The same rotation as the collider shaders use (sdf.glsl).
            mesh.positions.push_back(glm::dvec3(cloth.position) + ref::quatRotate(rotation, local));
        }

    // Quad (column, row) has corners a = (c, r), b = (c+1, r), c = (c, r+1),
    // d = (c+1, r+1). X x Z = -Y, so a triangle (a, c, b) (from a: +Z, then
    // +X) is counter-clockwise seen from +Y.
    for (uint32_t row = 0; row + 1 < mesh.rows; ++row)
        for (uint32_t column = 0; column + 1 < mesh.columns; ++column) {
            uint32_t a = gridVertex(mesh, column, row), b = gridVertex(mesh, column + 1, row);
            uint32_t c = gridVertex(mesh, column, row + 1), d = gridVertex(mesh, column + 1, row + 1);
            if ((column + row) % 2 == 0)
                mesh.triangles.insert(mesh.triangles.end(), {a, c, b, b, c, d});  // diagonal b-c
            else
                mesh.triangles.insert(mesh.triangles.end(), {a, c, d, a, d, b});  // diagonal a-d
        }

    auto addEdge = [&](uint32_t column0, uint32_t row0, uint32_t column1, uint32_t row1) {
        mesh.stretchEdges.push_back({gridVertex(mesh, column0, row0), gridVertex(mesh, column1, row1)});
    };
    for (uint32_t row = 0; row < mesh.rows; ++row)  // structural along X
        for (uint32_t column = 0; column + 1 < mesh.columns; ++column) addEdge(column, row, column + 1, row);
    for (uint32_t row = 0; row + 1 < mesh.rows; ++row)  // structural along Z
        for (uint32_t column = 0; column < mesh.columns; ++column) addEdge(column, row, column, row + 1);
    for (uint32_t row = 0; row + 1 < mesh.rows; ++row)  // shear a-d
        for (uint32_t column = 0; column + 1 < mesh.columns; ++column) addEdge(column, row, column + 1, row + 1);
    for (uint32_t row = 0; row + 1 < mesh.rows; ++row)  // shear b-c
        for (uint32_t column = 0; column + 1 < mesh.columns; ++column) addEdge(column + 1, row, column, row + 1);
    return mesh;
}

}  // namespace vksim
