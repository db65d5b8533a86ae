#include "solvers/vbd/vbd_model_builder.h"

#include <stdexcept>

#include <fmt/format.h>

#include "geometry/shared_math.h"
#include "io/quoted_input.h"
#include "model/object_builder.h"
#include "model/solid_geometry.h"

namespace vksim {

void appendVbdSolid(SharedModel& model, VbdModel& vbd, const SolidObject& solid, uint32_t index) {
    const std::string owner = fmt::format("solid '{}'", clipInput(solid.name));
    // The loader requires one; a scene built in code might not have it.
    if (!solid.material)
        throw std::invalid_argument(owner + ": a \"method\": \"vbd\" solid needs a \"material\"");
    const SolidGeometry geometry = buildSolidGeometry(solid, owner);
    const TetMesh& mesh = geometry.mesh;
    const uint32_t first = appendSolidParticles(model, solid, geometry, owner);

    VbdObject object;
    object.solid = index;
    object.firstParticle = first;
    object.particleCount = static_cast<uint32_t>(mesh.positions.size());
    object.firstTet = static_cast<uint32_t>(vbd.tets.size());
    object.tetCount = static_cast<uint32_t>(mesh.tets.size());
    object.material = static_cast<uint32_t>(vbd.materials.size());
    object.params = *solid.material;
    vbd.materials.push_back(elasticMaterialRow(*solid.material));
    for (size_t e = 0; e < mesh.tets.size(); ++e) {
        const glm::uvec4 particles = mesh.tets[e] + glm::uvec4(first);
        const TetRest rest = tetRest(model, particles, owner, static_cast<uint32_t>(e));
        gpu::VbdTet tet{};
        tet.particles = particles;
        tet.g1 = glm::vec4(glm::vec3(rest.g1), 0.0f);
        tet.g2 = glm::vec4(glm::vec3(rest.g2), 0.0f);
        tet.g3 = glm::vec4(glm::vec3(rest.g3), 0.0f);
        tet.material = object.material;
        tet.volume = static_cast<float>(rest.volume);
        vbd.tets.push_back(tet);
    }
    vbd.objects.push_back(object);
    const uint32_t firstTriangle = appendTriangles(model, mesh.surface, first);
    model.objects.push_back({solid.name, first, object.particleCount, firstTriangle,
                             static_cast<uint32_t>(mesh.surface.size() / 3), solid.color, 0.0f, solid.contacts});
}

}  // namespace vksim
