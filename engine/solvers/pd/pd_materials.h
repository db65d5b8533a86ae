#pragma once
// The parameters of projective dynamics elements (stiffness, strain or
// volume range) as the scene states them per object and family, and how
// they become element weights: weight = float(double(stiffness) * unit
// weight) (PdWeightGroup). The model builder and a live edit
// (PdMaterialEdit, pd_material_edit.h) both go through applyPdParams, so an edited
// model is bit for bit the model built from the edited scene.
#include <string>

#include "scene/scene.h"
#include "solvers/pd/pd_model.h"

namespace vksim {

// The scene's name for the parameters of a family ("stretch" for springs,
// "strain" for triangles and tet strain, "bending", "volume", "attachment").
const char* pdFamilyName(PdFamily family);

// The object's name in the scene (throws std::out_of_range for a bad index).
const std::string& pdOwnerName(const Scene& scene, PdOwner owner);

// "cloth 'flag' stretch", "solid 'bar' volume": for messages.
std::string describePdParams(const Scene& scene, PdOwner owner, PdFamily family);

// The scene's parameters of `family` of `owner`: a cloth's pd.stretch
// (springs), pd.strain (triangles), pd.bending, pd.attachment; a solid's
// strain (tet strain), volume (tet volume), attachment. Throws
// std::invalid_argument for an owner out of range, a cloth that is not "pd",
// or a family the kind of object does not have.
const PdParams& pdParams(const Scene& scene, PdOwner owner, PdFamily family);
PdParams& pdParams(Scene& scene, PdOwner owner, PdFamily family);

// Throws std::invalid_argument "<what>: ..." unless stiffness >= 0 and
// 0 <= rangeMin <= rangeMax, all finite.
void validatePdParams(const PdParams& params, const std::string& what);

// Writes the weights of the group's elements from params.stiffness and, for
// triangles and tetrahedra, their ranges (sigmaMin/Max, rangeMin/Max). The
// system matrix depends on the weights: rebuild it after (buildPdSystem).
void applyPdParams(PdModel& pd, const PdWeightGroup& group, const PdParams& params);

// A solid's strain and volume parameters from its material
// (docs/physics.md §16, "Projective dynamics and the material"): strain
// stiffness 2 mu and volume stiffness 3 lambda, both with the range [1, 1],
// so that for small strains the PD energy is linear elasticity of (mu,
// lambda). The volume family is on even at nu = 0 (weight 0), so that a live
// edit of nu can give it a weight.
struct PdSolidWeights {
    PdParams strain, volume;
};
PdSolidWeights pdWeightsOf(const ElasticMaterial& material);

// The group of `family` of `owner`, or null when it has no elements (the
// family is disabled, or the object has none of that kind).
const PdWeightGroup* findPdWeightGroup(const PdModel& pd, PdOwner owner, PdFamily family);

}  // namespace vksim
