#pragma once
// A collider as the CPU reference world (reference_world.h) holds it: the
// GPU's Collider (shared/sim_types.h) widened to double, with
// the rotation renormalised in double (a float quaternion is unit to ~1e-7
// only, and quatRotate scales by |q|^2), so the reference sees the exact
// shape.
#include <cstdint>

#include <glm/glm.hpp>

#include "geometry/shared_math.h"
#include "shaders/shared/sim_types.h"

namespace vksim {

struct ReferenceCollider {
    uint32_t type;
    glm::dvec3 position;
    glm::dvec4 rotation;
    glm::dvec4 size;
    double thickness, friction, staticFriction, restitution;  // staticFriction: the Collider's size.w
    glm::dvec3 linearVelocity, angularVelocity;

    static ReferenceCollider fromGpu(const gpu::Collider& c) {
        return {c.type,
                glm::dvec3(glm::vec3(c.position)),
                glm::normalize(glm::dvec4(c.rotation)),
                glm::dvec4(c.size),
                c.thickness,
                c.friction,
                c.size.w,
                c.restitution,
                glm::dvec3(glm::vec3(c.linearVelocity)),
                glm::dvec3(glm::vec3(c.angularVelocity))};
    }
    ref::ContactMaterial material() const { return {friction, staticFriction, restitution}; }
    // The velocity of its surface point x.
    glm::dvec3 pointVelocity(const glm::dvec3& x) const {
        return ref::colliderPointVelocity(linearVelocity, angularVelocity, position, x);
    }
};

}  // namespace vksim
