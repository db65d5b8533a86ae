#pragma once
// CPU triangle meshes of the collider shapes, built once for drawing: UV
// sphere, box, capsule, and a large ground square for a plane. Vertices are in
// the shape's local frame, as two vec4 streams like the solver's positions and
// normals (w unused); triangles wind counter-clockwise seen from the side the
// normal points to, as the cloth's do (normal = cross(b - a, c - a)).
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "shaders/shared/sim_types.h"
#include "solvers/sim_model.h"

namespace vksim {

struct ShapeMesh {
    std::vector<glm::vec4> positions;
    std::vector<glm::vec4> normals;
    std::vector<uint32_t> indices;  // 3 per triangle
};

ShapeMesh makeSphereMesh(float radius, uint32_t slices = 48, uint32_t stacks = 24);
ShapeMesh makeBoxMesh(glm::vec3 halfExtents);
// Axis along local Y; halfLength is half the distance between the cap centres.
ShapeMesh makeCapsuleMesh(float radius, float halfLength, uint32_t slices = 48, uint32_t stacksPerCap = 12);
// A square in the local XZ plane, normal +Y.
ShapeMesh makeGroundMesh(float halfSize);

// A mesh collider's or body's triangles, shaded smooth across edges that
// turn less than 40 degrees and sharp across the others (area-weighted
// normals), each vertex moved `inset` against its smooth normal.
ShapeMesh makeSurfaceMesh(const ColliderSurface& surface, float inset);

// The mesh a collider is drawn with, in its local frame. Surfaces are drawn a
// hair inside the true shape so that cloth resting on one does not z-fight it.
// `surface` holds the triangles of a mesh collider (empty for the others).
ShapeMesh makeColliderMesh(const gpu::Collider& collider, const ColliderSurface& surface = {});
// Local -> world: rotation by the collider's quaternion, then translation.
glm::mat4 colliderModelMatrix(const gpu::Collider& collider);

}  // namespace vksim
