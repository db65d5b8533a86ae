#pragma once
// Everything the GPU solver uploads, built once per topology from a Scene
// (model_builder.h): initial particle state, constraint arrays sorted by graph
// colour, materials, colliders, triangles for rendering. The CPU reference
// solver (cpu_reference.h) steps the same model in double precision.
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "shared/sim_types.h"

namespace vksim {

// Constraints [first, first + count) of a family share colour c = index in the vector.
struct ColorRange {
    uint32_t first = 0;
    uint32_t count = 0;
};

// One deformable object's slice of the global arrays.
struct ObjectRange {
    std::string name;
    uint32_t firstParticle = 0;
    uint32_t particleCount = 0;
    uint32_t firstTriangle = 0;
    uint32_t triangleCount = 0;
    glm::vec3 color{0.8f};
};

struct SimModel {
    // Particle state (per step): xyz + inverse mass in w; velocities xyz.
    std::vector<glm::vec4> positions;
    std::vector<glm::vec4> velocities;

    // Topology (uploaded once), each family sorted by colour.
    std::vector<gpu::ConstraintMaterial> materials;
    std::vector<gpu::DistanceConstraint> distance;
    std::vector<ColorRange> distanceColors;
    std::vector<gpu::BendingConstraint> bending;
    std::vector<ColorRange> bendingColors;
    std::vector<gpu::AttachmentConstraint> attachments;
    std::vector<ColorRange> attachmentColors;

    std::vector<gpu::Collider> colliders;

    // Rendering topology: 3 indices per triangle, and the CSR vertex -> triangle
    // adjacency the normals pass gathers over (offsets has positions.size()+1 entries).
    std::vector<uint32_t> triangles;
    std::vector<uint32_t> adjacencyOffsets;
    std::vector<uint32_t> adjacentTriangles;

    std::vector<ObjectRange> objects;

    uint32_t particleCount() const { return static_cast<uint32_t>(positions.size()); }
    uint32_t triangleCount() const { return static_cast<uint32_t>(triangles.size() / 3); }
};

}  // namespace vksim
