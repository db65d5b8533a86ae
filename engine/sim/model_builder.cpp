#include "sim/model_builder.h"

#include <array>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/cloth_grid.h"
#include "sim/graph_coloring.h"
#include "sim/isometric_bending.h"
#include "sim/triangle_mesh.h"

namespace vksim {
namespace {

gpu::ConstraintMaterial toMaterial(const ConstraintParams& params) {
    return {params.model == ConstraintModel::Xpbd ? gpu::kModeXpbd : gpu::kModePbd, params.stiffness,
            params.compliance, 0.0f};
}

glm::dvec3 positionOf(const SimModel& model, uint32_t particle) {
    return glm::dvec3(glm::vec3(model.positions[particle]));
}

std::vector<bool> pinnedMask(const ClothObject& cloth) {
    std::vector<bool> pinned(size_t(cloth.grid.resolution.x) * cloth.grid.resolution.y, false);
    for (glm::uvec2 pin : cloth.pinned) {
        if (pin.x >= cloth.grid.resolution.x || pin.y >= cloth.grid.resolution.y)
            throw std::invalid_argument(fmt::format("cloth '{}': pinned vertex ({}, {}) is outside the {}x{} grid",
                                                    cloth.name, pin.x, pin.y, cloth.grid.resolution.x,
                                                    cloth.grid.resolution.y));
        pinned[size_t(pin.y) * cloth.grid.resolution.x + pin.x] = true;
    }
    return pinned;
}

void appendCloth(SimModel& model, const ClothObject& cloth, uint32_t object, ModelDiagnostics& diagnostics) {
    if (!(cloth.mass > 0.0f) || !std::isfinite(cloth.mass))
        throw std::invalid_argument(fmt::format("cloth '{}': mass must be positive (got {})", cloth.name, cloth.mass));
    const ClothGridMesh mesh = buildClothGrid(cloth);
    const std::vector<bool> pinned = pinnedMask(cloth);
    const uint32_t first = model.particleCount();
    const uint32_t vertexCount = static_cast<uint32_t>(mesh.positions.size());
    const bool pinsAreHard = !cloth.pinsAsAttachments;

    // Particles: mass / n each, so the inverse mass is n / mass.
    const float inverseMass = static_cast<float>(double(vertexCount) / double(cloth.mass));
    for (uint32_t v = 0; v < vertexCount; ++v) {
        bool fixed = pinsAreHard && pinned[v];
        model.positions.emplace_back(glm::vec3(mesh.positions[v]), fixed ? 0.0f : inverseMass);
        model.velocities.emplace_back(fixed ? glm::vec3(0.0f) : cloth.initialVelocity, 0.0f);
    }

    model.materials.push_back(toMaterial(cloth.stretch));
    model.materials.push_back(toMaterial(cloth.bending));
    model.materials.push_back(toMaterial(cloth.attachment));

    if (cloth.stretch.enabled) {
        const uint32_t material = materialIndex(object, ConstraintFamily::Stretch);
        for (auto [a, b] : mesh.stretchEdges) {
            double restLength = glm::length(positionOf(model, first + a) - positionOf(model, first + b));
            model.distance.push_back({first + a, first + b, static_cast<float>(restLength), material});
        }
    }

    const uint32_t firstTriangle = model.triangleCount();
    for (uint32_t v : mesh.triangles) model.triangles.push_back(first + v);

    if (cloth.bending.enabled) {
        const uint32_t material = materialIndex(object, ConstraintFamily::Bending);
        const MeshEdges edges = findMeshEdges(std::span(model.triangles).subspan(size_t(firstTriangle) * 3));
        diagnostics.nonManifoldEdges += edges.nonManifoldCount;
        for (const InteriorEdge& edge : edges.interior) {
            glm::uvec4 particles(edge.v0, edge.v1, edge.opposite0, edge.opposite1);
            std::optional<IsometricBendingRest> rest =
                isometricBendingRest(positionOf(model, particles.x), positionOf(model, particles.y),
                                     positionOf(model, particles.z), positionOf(model, particles.w));
            if (!rest) {
                ++diagnostics.degenerateBendingEdges;
                continue;
            }
            model.bending.push_back({particles, rest->K, rest->scale, material, 0.0f, 0.0f});
        }
    }

    if (cloth.pinsAsAttachments && cloth.attachment.enabled) {
        const uint32_t material = materialIndex(object, ConstraintFamily::Attachment);
        for (uint32_t v = 0; v < vertexCount; ++v)
            if (pinned[v]) model.attachments.push_back({glm::vec4(glm::vec3(model.positions[first + v]), 1.0f),
                                                        first + v, material, 0.0f, 0.0f});
    }

    model.objects.push_back({cloth.name, first, vertexCount, firstTriangle,
                             static_cast<uint32_t>(mesh.triangles.size() / 3), cloth.color});
}

gpu::Collider toCollider(const ColliderDesc& desc) {
    gpu::Collider collider{};
    collider.position = glm::vec4(desc.position, 0.0f);
    float norm = glm::length(desc.rotation);
    if (!std::isfinite(norm) || norm < 1e-6f)
        throw std::invalid_argument(fmt::format("collider '{}': rotation quaternion cannot be normalised", desc.name));
    collider.rotation = desc.rotation / norm;
    switch (desc.shape) {
        case ColliderShape::Plane:
            collider.type = gpu::kColliderPlane;
            collider.size = glm::vec4(0.0f);
            break;
        case ColliderShape::Sphere:
            collider.type = gpu::kColliderSphere;
            collider.size = glm::vec4(desc.radius, 0.0f, 0.0f, 0.0f);
            break;
        case ColliderShape::Box:
            collider.type = gpu::kColliderBox;
            collider.size = glm::vec4(desc.halfExtents, 0.0f);
            break;
        case ColliderShape::Capsule:
            collider.type = gpu::kColliderCapsule;
            collider.size = glm::vec4(desc.radius, desc.halfLength, 0.0f, 0.0f);
            break;
    }
    collider.thickness = desc.thickness;
    collider.friction = desc.friction;
    collider.restitution = desc.restitution;
    return collider;
}

}  // namespace

SimModel buildModel(const Scene& scene, ModelDiagnostics* diagnostics) {
    if (scene.colliders.size() > gpu::kMaxColliders)
        throw std::invalid_argument(fmt::format("scene '{}': {} colliders, at most {} are supported", scene.name,
                                                scene.colliders.size(), gpu::kMaxColliders));
    SimModel model;
    ModelDiagnostics found;
    for (uint32_t object = 0; object < scene.cloths.size(); ++object)
        appendCloth(model, scene.cloths[object], object, found);

    model.distanceColors =
        colorAndSortByColor(model.distance, [](const gpu::DistanceConstraint& c) { return std::array{c.p0, c.p1}; });
    model.bendingColors = colorAndSortByColor(model.bending, [](const gpu::BendingConstraint& c) {
        return std::array{c.particles.x, c.particles.y, c.particles.z, c.particles.w};
    });
    model.attachmentColors = colorAndSortByColor(
        model.attachments, [](const gpu::AttachmentConstraint& c) { return std::array{c.particle}; });

    for (const ColliderDesc& desc : scene.colliders) model.colliders.push_back(toCollider(desc));

    VertexTriangles adjacency = vertexTriangleAdjacency(model.triangles, model.particleCount());
    model.adjacencyOffsets = std::move(adjacency.offsets);
    model.adjacentTriangles = std::move(adjacency.triangles);

    if (diagnostics) *diagnostics = found;
    return model;
}

}  // namespace vksim
