#include "solvers/solver_origin.h"

#include <cmath>

#include "contacts/contact_model.h"

namespace vksim {

namespace {

glm::vec3 rounded(glm::dvec3 sum, uint64_t count) {
    const glm::dvec3 centroid = sum / double(count);
    const double grid = kSolverOriginGrid;
    return glm::vec3(glm::round(centroid / grid) * grid);
}

}  // namespace

glm::vec3 solverOrigin(std::span<const glm::vec4> positions, ParticleRange range) {
    if (range.count == 0 || range.end() > positions.size()) return glm::vec3(0.0f);
    glm::dvec3 sum(0.0);
    for (uint32_t i = range.first; i < range.end(); ++i) sum += glm::dvec3(glm::vec3(positions[i]));
    return rounded(sum, range.count);
}

glm::vec3 solverOrigin(const SharedModel& model, ParticleRange range) {
    if (!hasContacts(model, range)) return solverOrigin(model.positions, range);
    glm::dvec3 sum(0.0);
    uint64_t count = 0;
    for (const ObjectRange& object : model.objects) {
        if (!object.contacts.enabled) continue;
        for (uint32_t i = object.firstParticle; i < object.firstParticle + object.particleCount; ++i)
            sum += glm::dvec3(glm::vec3(model.positions[i]));
        count += object.particleCount;
    }
    return rounded(sum, count);
}

}  // namespace vksim
