#include "model/object_builder.h"

#include "io/quoted_input.h"
#include "model/tethers.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace vksim {

float checkedInverseMass(double inverseMass, double objectMass, uint32_t particles, const std::string& owner) {
    const auto w = static_cast<float>(inverseMass);
    if (!std::isnormal(w))  // also infinite, NaN or zero
        throw std::invalid_argument(fmt::format(
            "{}: mass {:g} kg over {} particles gives a particle an inverse mass of {:g} 1/kg, outside what a 32-bit "
            "float holds; raise the mass",
            owner, objectMass, particles, inverseMass));
    return w;
}

uint32_t appendClothParticles(SharedModel& model, const ClothObject& cloth, const ClothGeometry& mesh,
                              const std::vector<bool>& pinned) {
    if (!(cloth.mass > 0.0f) || !std::isfinite(cloth.mass))
        throw std::invalid_argument(
            fmt::format("cloth '{}': mass must be positive (got {})", clipInput(cloth.name), cloth.mass));
    const uint32_t first = model.particleCount();
    const auto vertexCount = static_cast<uint32_t>(mesh.positions.size());
    const bool pinsAreHard = !cloth.pinsAsAttachments;
    const std::string owner = fmt::format("cloth '{}'", clipInput(cloth.name));
    for (uint32_t v = 0; v < vertexCount; ++v) {
        bool fixed = pinsAreHard && pinned[v];
        const double freeInverse = mesh.massShares.empty() ? double(vertexCount) / double(cloth.mass)
                                                           : 1.0 / (double(cloth.mass) * mesh.massShares[v]);
        const float free = fixed ? 0.0f : checkedInverseMass(freeInverse, cloth.mass, vertexCount, owner);
        model.positions.emplace_back(glm::vec3(mesh.positions[v]), free);
        model.velocities.emplace_back(fixed ? glm::vec3(0.0f) : cloth.initialVelocity, 0.0f);
    }
    return first;
}

void appendSolvedTethers(SharedModel& model, const ClothObject& cloth, const ClothGeometry& mesh, uint32_t first) {
    if (cloth.tethers.mode == TetherMode::Off) return;
    const double scale = 1.0 + double(cloth.tethers.slack);
    for (const TetherAnchor& t : findTetherAnchors(mesh.positions, mesh.triangles, mesh.pinned, cloth.tethers.mode))
        model.solvedTethers.push_back({glm::vec4(glm::vec3(model.positions[first + t.anchor]),
                                                 static_cast<float>(scale * t.restDistance)),
                                       first + t.vertex, 0, 0, 0});
}

uint32_t appendTriangles(SharedModel& model, const std::vector<uint32_t>& triangles, uint32_t firstParticle) {
    const uint32_t firstTriangle = model.triangleCount();
    for (uint32_t v : triangles) model.triangles.push_back(firstParticle + v);
    return firstTriangle;
}

}  // namespace vksim
