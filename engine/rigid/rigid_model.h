#pragma once
// Everything the rigid-body pass uploads, built once from a scene's bodies
// (docs/physics.md §11): per body its body-frame constants, its initial
// state and its contact points, and the surface it is drawn with. The body
// frame has its origin at the centre of mass: the shape is re-centred, so
// state.position is the centre of mass, not the scene's "position" (the
// shape's origin). The CPU reference (reference/rigid_reference.h) steps the
// same model in double.
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "scene/scene.h"
#include "shared/rigid_types.h"
#include "shared/sim_types.h"

namespace vksim {

// A body's triangles in its body frame (centred at the centre of mass).
struct RigidSurface {
    std::vector<glm::vec3> positions;
    std::vector<uint32_t> triangles;  // 3 per triangle, counter-clockwise seen from outside
};

struct RigidModel {
    std::vector<gpu::RigidBody> bodies;
    std::vector<gpu::RigidBodyState> states;  // initial
    std::vector<glm::vec4> points;            // body-frame contact points r_i (xyz), body after body
    std::vector<RigidSurface> surfaces;       // per body
    // Per body, its shape as a collider in the body frame (type, size, and
    // position = where the shape's origin sits relative to the centre of
    // mass; a mesh body's surface is already re-centred, position 0): what
    // it is drawn with, and the signed distance it presents to others.
    std::vector<gpu::Collider> shapes;
    std::vector<std::string> names;
    std::vector<glm::vec3> colors;
    // Per body, in double for the CPU reference and the tests: mass [kg] and
    // body-frame inertia about the centre of mass [kg m^2].
    std::vector<double> masses;
    std::vector<glm::dmat3> inertias;

    uint32_t bodyCount() const { return static_cast<uint32_t>(bodies.size()); }
    bool empty() const { return bodies.empty(); }
};

// Throws std::invalid_argument (naming the body's JSON path) for a body
// that cannot be built (rigid/body_mass.h).
RigidModel buildRigidModel(const std::vector<BodyDesc>& bodies);

}  // namespace vksim
