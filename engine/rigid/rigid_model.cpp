#include "rigid/rigid_model.h"

#include <stdexcept>

#include <fmt/format.h>

#include "rigid/body_mass.h"
#include "sim/shared_math.h"

namespace vksim {
namespace {

glm::vec4 column(const glm::dmat3& m, int c) { return glm::vec4(glm::vec3(m[c]), 0.0f); }

}  // namespace

RigidModel buildRigidModel(const std::vector<BodyDesc>& descs) {
    RigidModel model;
    for (const BodyDesc& desc : descs) {
        BodyMass mass;
        try {
            mass = bodyMass(desc);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(fmt::format("{}: {}", desc.source, e.what()));
        }
        const BodySurface outline = bodyShapeSurface(desc);
        const glm::dmat3 inverseInertia = glm::inverse(mass.inertia);

        gpu::RigidBody body{};
        body.inertia0 = column(mass.inertia, 0);
        body.inertia1 = column(mass.inertia, 1);
        body.inertia2 = column(mass.inertia, 2);
        body.inverseInertia0 = column(inverseInertia, 0);
        body.inverseInertia1 = column(inverseInertia, 1);
        body.inverseInertia2 = column(inverseInertia, 2);
        body.inverseMass = static_cast<float>(1.0 / mass.mass);
        body.firstPoint = static_cast<uint32_t>(model.points.size());
        body.pointCount = static_cast<uint32_t>(outline.positions.size());
        body.friction = desc.friction;
        body.restitution = desc.restitution;

        // Re-centred: the body frame's origin is the centre of mass, so the
        // shape's vertices shift by -centre and the state's position is where
        // the scene's rotation and position put the centre.
        RigidSurface surface;
        for (const glm::dvec3& p : outline.positions) {
            const glm::vec3 r(p - mass.centre);
            model.points.emplace_back(r, 0.0f);
            surface.positions.push_back(r);
        }
        surface.triangles = outline.triangles;

        gpu::Collider shape{};
        shape.rotation = glm::vec4(0.0f, 0.0f, 0.0f, 1.0f);
        shape.friction = desc.friction;
        shape.restitution = desc.restitution;
        switch (desc.shape) {
            case BodyShape::Box:
                shape.type = gpu::kColliderBox;
                shape.size = glm::vec4(desc.halfExtents, 0.0f);
                break;
            case BodyShape::Sphere:
                shape.type = gpu::kColliderSphere;
                shape.size = glm::vec4(desc.radius, 0.0f, 0.0f, 0.0f);
                break;
            case BodyShape::Capsule:
                shape.type = gpu::kColliderCapsule;
                shape.size = glm::vec4(desc.radius, desc.halfLength, 0.0f, 0.0f);
                break;
            case BodyShape::Mesh:
                shape.type = gpu::kColliderMesh;
                shape.size = glm::vec4(0.0f, desc.meshScale, 0.0f, 0.0f);
                break;
        }
        shape.position = desc.shape == BodyShape::Mesh ? glm::vec4(0.0f) : glm::vec4(glm::vec3(-mass.centre), 0.0f);

        const glm::dvec4 q = glm::normalize(glm::dvec4(desc.rotation));
        gpu::RigidBodyState state{};
        state.position = glm::vec4(glm::vec3(glm::dvec3(desc.position) + ref::quatRotate(q, mass.centre)), 0.0f);
        state.rotation = glm::vec4(q);
        state.linearVelocity = glm::vec4(desc.velocity, 0.0f);
        state.angularVelocity = glm::vec4(desc.angularVelocity, 0.0f);

        model.bodies.push_back(body);
        model.states.push_back(state);
        model.surfaces.push_back(std::move(surface));
        model.shapes.push_back(shape);
        model.names.push_back(desc.name);
        model.colors.push_back(desc.color);
        model.masses.push_back(mass.mass);
        model.inertias.push_back(mass.inertia);
    }
    return model;
}

}  // namespace vksim
