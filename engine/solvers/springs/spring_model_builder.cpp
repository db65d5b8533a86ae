#include "solvers/springs/spring_model_builder.h"

#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "io/quoted_input.h"
#include "model/cloth_geometry.h"
#include "solvers/springs/spring_builder.h"

namespace vksim {

void appendSpringCloth(SharedModel& model, MsModel& springs, const ClothObject& cloth, uint32_t index,
                       ModelDiagnostics& diagnostics) {
    if (cloth.pinsAsAttachments)
        throw std::invalid_argument(fmt::format(
            R"(cloth '{}': pinsAsAttachments is not available with "method": "springs" (pinned vertices are fixed))",
            clipInput(cloth.name)));
    const ClothGeometry mesh = buildClothGeometry(cloth);
    const uint32_t first = appendClothParticles(model, cloth, mesh, mesh.pinned);
    const auto vertexCount = static_cast<uint32_t>(mesh.positions.size());
    std::vector<glm::dvec3> rest(vertexCount);
    for (uint32_t v = 0; v < vertexCount; ++v) rest[v] = positionOf(model, first + v);

    SpringSource source;
    source.cloth = index;
    source.firstParticle = first;
    source.rest = rest;
    source.triangles = mesh.triangles;
    if (!cloth.mesh) {
        source.gridColumns = cloth.grid.resolution.x;
        source.gridRows = cloth.grid.resolution.y;
    }
    source.params = cloth.springs;
    try {
        appendSpringObject(springs, source);
    } catch (const std::invalid_argument& error) {  // name the cloth as the other builders do
        throw std::invalid_argument(fmt::format("cloth '{}': {}", clipInput(cloth.name), error.what()));
    }
    const SpringCounts& counts = springs.objects.back().counts;
    diagnostics.nonManifoldEdges += counts.nonManifoldEdges;
    diagnostics.degenerateBendingEdges += counts.degenerateQuadratic;

    appendSolvedTethers(model, cloth, mesh, first);
    const uint32_t firstTriangle = appendTriangles(model, mesh.triangles, first);
    model.objects.push_back({cloth.name, first, vertexCount, firstTriangle,
                             static_cast<uint32_t>(mesh.triangles.size() / 3), cloth.color, 0.0f,
                             cloth.contacts, cloth.aero});
}

}  // namespace vksim
