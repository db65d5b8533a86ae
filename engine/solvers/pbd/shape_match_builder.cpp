#include "solvers/pbd/shape_match_builder.h"

#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "geometry/shared_math.h"
#include "shaders/pbd/pbd_types.h"

namespace vksim {

void appendShapeMatchGroup(const SharedModel& model, PbdModel& pbd, const ShapeMatchParams& params, uint32_t first,
                           std::span<const double> masses) {
    const auto count = static_cast<uint32_t>(masses.size());
    double total = 0.0;
    glm::dvec3 centre(0.0);
    for (uint32_t i = 0; i < count; ++i) {
        total += masses[i];
        centre += masses[i] * glm::dvec3(glm::vec3(model.positions[first + i]));
    }
    centre /= total;
    glm::dmat3 Aqq(0.0);
    std::vector<glm::dvec3> offsets(count);
    for (uint32_t i = 0; i < count; ++i) {
        offsets[i] = glm::dvec3(glm::vec3(model.positions[first + i])) - centre;
        Aqq += masses[i] * glm::outerProduct(offsets[i], offsets[i]);
    }
    // Aqq is symmetric positive semidefinite: its singular values are its
    // eigenvalues, the mass-weighted spread of the rest points along the
    // principal axes. Two are needed to fix a rotation, three a linear map.
    const ref::Svd3 spread = ref::svd3(Aqq);
    if (!(spread.S.y > 1e-12 * spread.S.x))
        throw std::invalid_argument(fmt::format(
            "shapeMatching: the object's {} rest points lie on a line, which fixes no rotation; shape matching needs "
            "points that span a plane or a volume",
            count));
    const bool linear = params.mode == ShapeMatchMode::Linear;
    if (linear && !(spread.S.z > 1e-9 * spread.S.x))
        throw std::invalid_argument(
            "shapeMatching/mode: \"linear\" needs rest points that span a volume, but the object's lie in a plane "
            "(a flat cloth), which fixes no linear map; use \"mode\": \"rigid\"");

    gpu::ShapeMatchGroup group{};
    if (linear) {
        const glm::dmat3 restInverse = glm::inverse(Aqq);
        group.restInverse0 = glm::vec4(glm::vec3(restInverse[0]), 0.0f);
        group.restInverse1 = glm::vec4(glm::vec3(restInverse[1]), 0.0f);
        group.restInverse2 = glm::vec4(glm::vec3(restInverse[2]), 0.0f);
    }
    group.firstParticle = first;
    group.particleCount = count;
    group.firstRest = static_cast<uint32_t>(pbd.shapeMatchRest.size());
    group.mode = linear ? gpu::kShapeMatchLinear : gpu::kShapeMatchRigid;
    group.stiffness = params.stiffness;
    group.beta = params.beta;
    group.inverseMass = static_cast<float>(1.0 / total);
    pbd.shapeMatchGroups.push_back(group);
    for (uint32_t i = 0; i < count; ++i)
        pbd.shapeMatchRest.emplace_back(glm::vec3(offsets[i]), static_cast<float>(masses[i]));
}

}  // namespace vksim
