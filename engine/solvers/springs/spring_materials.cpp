#include "solvers/springs/spring_materials.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace vksim {
namespace {

void requireNonNegative(float value, std::string_view owner, std::string_view what) {
    if (!(value >= 0.0f) || !std::isfinite(value))
        throw std::invalid_argument(fmt::format("{}: {} must be a finite number >= 0 (got {})", owner, what, value));
}

float springStiffness(uint32_t kind, const SpringClothParams& params) {
    switch (kind) {
        case gpu::kSpringStretch: return params.stretch;
        case gpu::kSpringShear: return params.shear;
        default: return params.bending == SpringBending::Springs ? params.bendingStiffness : 0.0f;
    }
}

// One particle row of quadratic entries [first, end): k Q_ij off the
// diagonal, then the diagonal as 0 - (their sum in double), so the float row
// sums to zero up to one rounding (0 - sum, not -sum: no -0.0 when k = 0).
void writeQuadraticRow(MsModel& ms, size_t first, size_t end, double stiffness) {
    double offDiagonal = 0.0;
    size_t diagonal = end;
    for (size_t e = first; e < end; ++e) {
        if (ms.quadratic[e].column == ms.quadraticRows[e]) {
            diagonal = e;
            continue;
        }
        // An inactive representation holds +0, not 0 x (negative) = -0.
        ms.quadratic[e].value = stiffness == 0.0 ? 0.0f : static_cast<float>(stiffness * ms.quadraticUnit[e]);
        offDiagonal += double(ms.quadratic[e].value);
    }
    if (diagonal != end) ms.quadratic[diagonal].value = static_cast<float>(0.0 - offDiagonal);
}

}  // namespace

void validateSpringParams(const SpringClothParams& params, std::string_view owner) {
    requireNonNegative(params.stretch, owner, "stretch stiffness");
    requireNonNegative(params.shear, owner, "shear stiffness");
    requireNonNegative(params.bendingStiffness, owner, "bending stiffness");
    requireNonNegative(params.drag, owner, "drag");
    if (!(params.compressionScale >= 0.0f && params.compressionScale <= 1.0f))
        throw std::invalid_argument(
            fmt::format("{}: compressionScale must be in [0, 1] (got {})", owner, params.compressionScale));
    if (!(params.slack >= 0.0f && params.slack < 1.0f))
        throw std::invalid_argument(fmt::format("{}: slack must be in [0, 1) (got {})", owner, params.slack));
    if (params.integrator && minimisesEnergy(*params.integrator))
        throw std::invalid_argument(fmt::format("{}: {}", owner, kObjectIntegratorNeedsExplicitSolver));
    if (params.shearDiagonals > 2)
        throw std::invalid_argument(
            fmt::format("{}: shearDiagonals must be 0, 1 or 2 (got {})", owner, params.shearDiagonals));
}

SpringClothParams effectiveSpringParams(SpringClothParams params, bool grid) {
    if (!grid) params.topology = SpringTopology::Mesh;
    if (params.topology == SpringTopology::Mesh) params.shearDiagonals = 0;
    return params;
}

void applySpringParams(MsModel& ms, uint32_t objectIndex, const SpringClothParams& params) {
    SpringObject& object = ms.objects.at(objectIndex);
    for (uint32_t s = object.firstSpring; s < object.firstSpring + object.springCount; ++s) {
        gpu::MsSpring& spring = ms.springs[s];
        spring.stiffness = springStiffness(spring.kind, params);
        spring.compressionScale = params.compressionScale;
        spring.slack = params.slack;
    }
    const float hingeStiffness = params.bending == SpringBending::Dihedral ? params.bendingStiffness : 0.0f;
    for (uint32_t h = object.firstHinge; h < object.firstHinge + object.hingeCount; ++h)
        ms.hinges[h].stiffness = hingeStiffness;

    const double quadraticStiffness = params.bending == SpringBending::Quadratic ? params.bendingStiffness : 0.0;
    const size_t end = size_t(object.firstQuadratic) + object.quadraticCount;
    for (size_t first = object.firstQuadratic; first < end;) {
        size_t rowEnd = first;
        while (rowEnd < end && ms.quadraticRows[rowEnd] == ms.quadraticRows[first]) ++rowEnd;
        writeQuadraticRow(ms, first, rowEnd, quadraticStiffness);
        first = rowEnd;
    }

    // The particles exist once buildSpringSystem has run (it copies the drag
    // from object.params itself).
    const size_t firstLocal = size_t(object.firstParticle) - ms.firstParticle;
    if (!ms.particles.empty() && firstLocal + object.particleCount <= ms.particles.size())
        for (uint32_t p = 0; p < object.particleCount; ++p) ms.particles[firstLocal + p].drag = params.drag;
    object.params = params;
}

void setSpringParams(MsModel& ms, uint32_t objectIndex, const SpringClothParams& params) {
    if (objectIndex >= ms.objects.size())
        throw std::invalid_argument(fmt::format("setSpringParams: no spring object {} (the model has {})",
                                                objectIndex, ms.objects.size()));
    const SpringObject& object = ms.objects[objectIndex];
    const std::string owner = fmt::format("spring object {} (cloth {})", objectIndex, object.cloth);
    validateSpringParams(params, owner);
    const SpringClothParams effective = effectiveSpringParams(params, object.gridColumns != 0);
    if (effective.topology != object.params.topology || effective.shearDiagonals != object.params.shearDiagonals)
        throw std::invalid_argument(fmt::format(
            "{}: the topology or shear diagonals changed; that changes the springs and needs a new model", owner));
    applySpringParams(ms, objectIndex, effective);
}

}  // namespace vksim
