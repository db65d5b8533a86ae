#include "model/cloth_geometry.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "geometry/shared_math.h"
#include "geometry/triangle_mesh.h"
#include "io/quoted_input.h"
#include "io/triangle_surface.h"
#include "model/cloth_grid.h"

namespace vksim {
namespace {

ClothGeometry fromGrid(const ClothObject& cloth) {
    ClothGridMesh grid = buildClothGrid(cloth);
    ClothGeometry geometry;
    geometry.positions = std::move(grid.positions);
    geometry.triangles = std::move(grid.triangles);
    geometry.stretchEdges = std::move(grid.stretchEdges);
    geometry.pinned.assign(geometry.positions.size(), false);
    for (glm::uvec2 pin : cloth.pinned) {
        if (pin.x >= cloth.grid.resolution.x || pin.y >= cloth.grid.resolution.y)
            throw std::invalid_argument(fmt::format("cloth '{}': pinned vertex ({}, {}) is outside the {}x{} grid",
                                                    clipInput(cloth.name), pin.x, pin.y, cloth.grid.resolution.x,
                                                    cloth.grid.resolution.y));
        geometry.pinned[gridVertex(grid, pin.x, pin.y)] = true;
    }
    return geometry;
}

ClothGeometry fromMesh(const ClothObject& cloth, const ClothMeshSource& source) {
    const std::string owner = fmt::format("mesh '{}'", clipInput(cloth.name));
    if (!source.surface) throw std::invalid_argument(owner + ": no surface loaded");
    const TriangleSurface& surface = *source.surface;
    glm::dvec4 rotation(cloth.rotation);
    const double norm = glm::length(rotation);
    if (!std::isfinite(norm) || norm < 1e-12)
        throw std::invalid_argument(owner + ": rotation quaternion cannot be normalised");
    if (!(source.scale > 0.0f) || !std::isfinite(source.scale))
        throw std::invalid_argument(fmt::format("{}: scale must be positive (got {})", owner, source.scale));
    rotation /= norm;

    ClothGeometry geometry;
    // The same rotation as the collider shaders use (sdf.glsl).
    for (const glm::dvec3& p : surface.positions)
        geometry.positions.push_back(glm::dvec3(cloth.position) + ref::quatRotate(rotation, double(source.scale) * p));
    geometry.triangles = surface.triangles;
    for (const MeshEdge& edge : findMeshEdges(geometry.triangles).edges)
        geometry.stretchEdges.push_back({edge.v0, edge.v1});
    geometry.pinned.assign(geometry.positions.size(), false);
    for (uint32_t v : source.pinnedVertices) {
        if (v >= geometry.pinned.size())
            throw std::invalid_argument(fmt::format("{}: pinned vertex {} is out of range", owner, v));
        geometry.pinned[v] = true;
    }

    geometry.massShares.assign(geometry.positions.size(), 0.0);
    double totalArea = 0.0;
    for (std::size_t t = 0; t < geometry.triangles.size(); t += 3) {
        const glm::dvec3& a = geometry.positions[geometry.triangles[t]];
        const double area = 0.5 * glm::length(glm::cross(geometry.positions[geometry.triangles[t + 1]] - a,
                                                         geometry.positions[geometry.triangles[t + 2]] - a));
        for (int c = 0; c < 3; ++c) geometry.massShares[geometry.triangles[t + c]] += area / 3.0;
        totalArea += area;
    }
    if (!(totalArea > 0.0)) throw std::invalid_argument(owner + ": the mesh has no area");
    for (double& share : geometry.massShares) share /= totalArea;
    return geometry;
}

}  // namespace

ClothGeometry buildClothGeometry(const ClothObject& cloth) {
    return cloth.mesh ? fromMesh(cloth, *cloth.mesh) : fromGrid(cloth);
}

}  // namespace vksim
