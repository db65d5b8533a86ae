#include "geometry/collider_bounds.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <glm/glm.hpp>

namespace vksim {

namespace {

// sdf.glsl meshSdfLocal, in mesh units (q = p / s, f = s f_q): inside the
// sample box f_q(q) is the trilinear blend sum w_i v_i of a cell's corners
// x_i, and |q| <= sum w_i |x_i| (the norm is convex), so |q| - f_q(q) <=
// sum w_i (|x_i| - v_i) <= R_q = max over the samples of |x_i| - v_i.
// Outside, f_q(q) = f_q(b) + |q - b| with b the nearest point of the box,
// so |q| - f_q(q) <= |b| - f_q(b) <= R_q too. R = s R_q: for an exact SDF
// |x| - v(x) is at most the shape's extent, so the bound is about as tight.
float meshBoundRadius(const gpu::Collider& collider, std::span<const float> grids) {
    const auto base = static_cast<size_t>(collider.size.x);
    if (base + gpu::kMeshSdfHeaderFloats > grids.size())
        throw std::logic_error("colliderBoundRadius: a mesh collider's grid is not in the buffer");
    const auto nx = static_cast<size_t>(grids[base]), ny = static_cast<size_t>(grids[base + 1]),
               nz = static_cast<size_t>(grids[base + 2]);
    const double spacing = grids[base + 3];
    const glm::dvec3 origin(grids[base + 4], grids[base + 5], grids[base + 6]);
    const size_t first = base + gpu::kMeshSdfHeaderFloats;
    if (first + nx * ny * nz > grids.size())
        throw std::logic_error("colliderBoundRadius: a mesh collider's grid is cut short");
    double radius = 0.0;
    for (size_t k = 0, s = first; k < nz; ++k)
        for (size_t j = 0; j < ny; ++j)
            for (size_t i = 0; i < nx; ++i, ++s) {
                const glm::dvec3 x = origin + spacing * glm::dvec3(double(i), double(j), double(k));
                radius = std::max(radius, glm::length(x) - double(grids[s]));
            }
    return static_cast<float>(double(collider.size.y) * radius);
}

}  // namespace

float colliderBoundRadius(const gpu::Collider& collider, std::span<const float> meshSdfGrids) {
    // A convex shape about its origin inside a ball of radius R: its distance
    // is at least |p| - R (outside, the ball's; inside, the ray from the
    // origin through p leaves the shape within R - |p|).
    switch (collider.type) {
        case gpu::kColliderPlane: return -1.0f;
        case gpu::kColliderSphere: return collider.size.x;
        case gpu::kColliderBox: return glm::length(glm::vec3(collider.size));
        case gpu::kColliderCapsule: return collider.size.x + collider.size.y;
        case gpu::kColliderMesh: return meshBoundRadius(collider, meshSdfGrids);
        default: return -1.0f;
    }
}

void setColliderBounds(std::vector<gpu::Collider>& colliders, std::span<const float> meshSdfGrids) {
    for (gpu::Collider& collider : colliders) collider.position.w = colliderBoundRadius(collider, meshSdfGrids);
}

}  // namespace vksim
