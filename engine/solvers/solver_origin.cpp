#include "solvers/solver_origin.h"

#include <cmath>

namespace vksim {

glm::vec3 solverOrigin(std::span<const glm::vec4> positions, ParticleRange range) {
    if (range.count == 0 || range.end() > positions.size()) return glm::vec3(0.0f);
    glm::dvec3 sum(0.0);
    for (uint32_t i = range.first; i < range.end(); ++i) sum += glm::dvec3(glm::vec3(positions[i]));
    const glm::dvec3 centroid = sum / double(range.count);
    const double grid = kSolverOriginGrid;
    return glm::vec3(glm::round(centroid / grid) * grid);
}

}  // namespace vksim
