#pragma once
// The shared SDF (shaders/math/sdf.glsl, compiled as C++ in double) for a
// scene's ColliderDesc, so tests measure penetration with the GPU's own f.
#include <stdexcept>

#include "geometry/shared_math.h"
#include "scene/scene.h"
#include "solvers/sim_model.h"

namespace vksim::test {

inline uint32_t colliderType(ColliderShape shape) {
    switch (shape) {
        case ColliderShape::Plane: return gpu::kColliderPlane;
        case ColliderShape::Sphere: return gpu::kColliderSphere;
        case ColliderShape::Box: return gpu::kColliderBox;
        case ColliderShape::Capsule: return gpu::kColliderCapsule;
        case ColliderShape::Mesh: return gpu::kColliderMesh;
    }
    return gpu::kColliderPlane;
}

inline glm::dvec4 colliderSize(const ColliderDesc& c) {
    switch (c.shape) {
        case ColliderShape::Sphere: return {c.radius, 0, 0, 0};
        case ColliderShape::Box: return {c.halfExtents, 0};
        case ColliderShape::Capsule: return {c.radius, c.halfLength, 0, 0};
        case ColliderShape::Plane: break;
        case ColliderShape::Mesh:  // the grid's offset is the model's: use the model's gpu::Collider
            throw std::invalid_argument("colliderSize: a mesh collider's size depends on its model");
    }
    return glm::dvec4(0.0);
}

// f(p) of the collider (without its thickness).
inline double colliderDistance(const ColliderDesc& c, const glm::dvec3& p) {
    return ref::sdfWorld(colliderType(c.shape), glm::dvec3(c.position), glm::dvec4(c.rotation), colliderSize(c), p);
}

// f(p) of a model's collider (without its thickness); mesh colliders read
// the model's grids.
inline double colliderDistance(const SimModel& model, const gpu::Collider& c, const glm::dvec3& p) {
    const ref::MeshSdfGridScope grids(model.meshSdfGrids);
    return ref::sdfWorld(c.type, glm::dvec3(glm::vec3(c.position)), glm::normalize(glm::dvec4(c.rotation)),
                         glm::dvec4(c.size), p);
}

}  // namespace vksim::test
