#pragma once
// The live edit of a projective dynamics material (World::edit with a
// PdMaterialEdit).
#include "scene/scene.h"
#include "solvers/pd/pd_model.h"
#include "solvers/pd/pd_solver.h"

namespace vksim {

struct SimModel;

// The stiffness and strain/volume range of element family `family` of
// projective dynamics object `owner` take `params` (pd_materials.h:
// pdParams names which scene parameters). The weights live in the system
// matrix too: this rebuilds the matrix rows on the CPU, uploads them with
// the elements (waiting for the frames in flight) and re-estimates the
// Jacobi spectrum at the next frame, so it costs milliseconds, not
// microseconds. The result is the model a new World of the edited scene
// would build, bit for bit. `enabled` cannot change. Throws
// std::invalid_argument, changing nothing, for a bad owner, family or
// value, or when the scene's fixed relaxation would make the Jacobi
// iteration diverge with the new weights.
struct PdMaterialEdit {
    using Solver = PdSolver;
    PdOwner owner;
    PdFamily family = PdFamily::Springs;
    PdParams params;
    void apply(Scene& scene, SimModel& model, PdSolver& solver) const;
};

// A projective dynamics solid's material (E, nu, the model, which PD's own
// energies do not use; the density cannot change live: it is the masses)
// becomes `material`: its
// strain and volume weights are those pdWeightsOf gives, applied as a
// PdMaterialEdit applies one family's (milliseconds), and scene() holds the
// material and the weights. Throws std::invalid_argument, changing nothing,
// for a solid that is not "pd", has no material, or a value the loader
// would refuse.
struct PdSolidMaterialEdit {
    using Solver = PdSolver;
    uint32_t solid = 0;  // Scene::solids index
    ElasticMaterial material;
    void apply(Scene& scene, SimModel& model, PdSolver& solver) const;
};

}  // namespace vksim
