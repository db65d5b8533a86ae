#include "scene/body_mass.h"

#include "io/triangle_surface.h"

namespace vksim {
namespace {

// Contact points of the primitives by default: a box face of 4x4 cells
// (98 points), an icosphere of 162 vertices, a capsule of 16 slices.
constexpr uint32_t kDefaultBoxCells = 4;
constexpr uint32_t kDefaultSphereSubdivisions = 2;
constexpr uint32_t kDefaultCapsuleSlices = 16;

}  // namespace

BodySurface bodyShapeSurface(const BodyDesc& body) {
    switch (body.shape) {
        case BodyShape::Box: return boxSurface(glm::dvec3(body.halfExtents), body.detail.value_or(kDefaultBoxCells));
        case BodyShape::Sphere: return sphereSurface(body.radius, body.detail.value_or(kDefaultSphereSubdivisions));
        case BodyShape::Capsule: {
            const uint32_t slices = body.detail.value_or(kDefaultCapsuleSlices);
            return capsuleSurface(body.radius, body.halfLength, slices, std::max(2u, slices / 4u));
        }
        case BodyShape::Mesh: {
            BodySurface surface;
            surface.positions.reserve(body.meshSurface->positions.size());
            for (const glm::dvec3& p : body.meshSurface->positions)
                surface.positions.push_back(p * static_cast<double>(body.meshScale));
            surface.triangles = body.meshSurface->triangles;
            return surface;
        }
    }
    return {};
}

BodyMass bodyMass(const BodyDesc& body) {
    MassProperties properties;
    switch (body.shape) {
        case BodyShape::Box: properties = boxMassProperties(glm::dvec3(body.halfExtents)); break;
        case BodyShape::Sphere: properties = sphereMassProperties(body.radius); break;
        case BodyShape::Capsule: properties = capsuleMassProperties(body.radius, body.halfLength); break;
        case BodyShape::Mesh: {
            const BodySurface surface = bodyShapeSurface(body);
            properties = polyhedronMassProperties(surface.positions, surface.triangles);
            break;
        }
    }
    const BodyMass mass = body.density > 0.0f ? bodyMassFromDensity(properties, body.density)
                                              : bodyMassFromMass(properties, body.mass);
    requireInvertibleInertia(mass.inertia);
    return mass;
}

}  // namespace vksim
