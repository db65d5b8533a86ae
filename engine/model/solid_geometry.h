#pragma once
// What every solver that steps tetrahedral solids builds from a SolidObject
// (docs/physics.md §5, §16): its tetrahedra placed in the world, validated,
// with lumped masses and pins; its particles in the shared model; each
// tetrahedron's rest shape read back from the particles as uploaded.
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "geometry/tet_mesh.h"
#include "model/shared_model.h"
#include "scene/scene.h"
#include "shaders/shared/elastic_types.h"

namespace vksim {

struct SolidGeometry {
    TetMesh mesh;                // positions in the world frame, every tetrahedron positively oriented
    std::vector<double> masses;  // lumped per vertex [kg]
    std::vector<bool> pinned;    // pinned faces (boxes) or regions (meshes)
    double totalMass = 0.0;      // the object's "mass", or density times rest volume with a material
};

// Throws std::invalid_argument naming `owner` ("solid 'bar'") and, for a
// degenerate or inverted tetrahedron, its index and vertices.
SolidGeometry buildSolidGeometry(const SolidObject& solid, const std::string& owner);

// Throws std::invalid_argument "<where>: ..." unless E > 0, nu in [0, 0.5)
// and density > 0, all finite (the loader's checks, for scenes built in code
// and live edits).
void validateElasticMaterial(const ElasticMaterial& material, const std::string& where);
// A live edit of a solid's material: `next` valid, with `current`'s density
// (the density is the particles' masses, which are rebuilt, not edited).
void checkMaterialEdit(const ElasticMaterial& current, const ElasticMaterial& next, const std::string& where);

// The GPU's row of a material (shared/elastic_types.h): its model and the
// Lame parameters of its E and nu (lameParameters in double, then float),
// the same for the XPBD and VBD solids and their live edits.
gpu::ElasticMaterialRow elasticMaterialRow(const ElasticMaterial& material);

// Its particles: hard pins get inverse mass 0 unless pinsAsAttachments.
// Returns the first particle.
uint32_t appendSolidParticles(SharedModel& model, const SolidObject& solid, const SolidGeometry& geometry,
                              const std::string& owner);

// A tetrahedron's rest shape from its particles as uploaded: g_1..g_3 the
// rows of Dm^-1, Dm = [X1 - X0, X2 - X0, X3 - X0], so that F = sum_k x_k g_k^T
// with g_0 = -(g_1 + g_2 + g_3); and its rest volume det(Dm) / 6.
struct TetRest {
    glm::dvec3 g1, g2, g3;
    double volume = 0.0;
};
// Throws std::invalid_argument naming `owner` and tetrahedron `index` if the
// uploaded (float) positions leave it without a positive volume.
TetRest tetRest(const SharedModel& model, glm::uvec4 particles, const std::string& owner, uint32_t index);

}  // namespace vksim
