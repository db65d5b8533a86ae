#pragma once
// Live edits of PBD materials (World::edit with a PbdMaterialEdit): the
// stiffness or compliance of one constraint family of one cloth, checked,
// then written to the scene, to the model's material row and to the
// solver's buffer, so that the edited model is the one a new World of the
// edited scene would build.
#include <cstdint>

#include "scene/scene.h"
#include "solvers/pbd/pbd_model.h"
#include "solvers/pbd/pbd_solver.h"

namespace vksim {

struct SimModel;

// The live edit: family `family` of PBD cloth `cloth` (index into
// scene().cloths) takes `params`, from the next frame on, with no wait.
// `enabled` cannot change (the constraints exist or not). Throws
// std::invalid_argument, changing nothing, for a projective dynamics cloth
// (its parameters are PD weights), a bad index, family or value.
struct PbdMaterialEdit {
    using Solver = PbdSolver;
    uint32_t cloth = 0;
    ConstraintFamily family = ConstraintFamily::Stretch;
    ConstraintParams params;
    void apply(Scene& scene, SimModel& model, PbdSolver& solver) const;
};

// The live edit of an XPBD solid's elasticity (docs/physics.md §16, "XPBD for solids"):
// solid `solid` (index into scene().solids, "method": "xpbd") takes
// `material`'s model, Young's modulus and Poisson's ratio from the next frame
// on, with no wait (its row of the elastic materials); its density (the
// masses) cannot change. Throws std::invalid_argument, changing nothing,
// for another method, a bad index or value.
struct PbdSolidMaterialEdit {
    using Solver = PbdSolver;
    uint32_t solid = 0;
    ElasticMaterial material;
    void apply(Scene& scene, SimModel& model, PbdSolver& solver) const;
};

// The live edit of a tearing cloth's threshold (docs/physics.md §1,
// "Tearing"): PBD cloth `cloth` (index into scene().cloths), which has
// "tearing", breaks its stretch constraints past `strain` from the next frame
// on, with no wait. What broke stays broken. Throws std::invalid_argument,
// changing nothing, for a cloth that does not tear (tearing cannot be
// switched on live), a bad index or a strain not in (0, 10].
struct PbdTearEdit {
    using Solver = PbdSolver;
    uint32_t cloth = 0;
    float strain = 0.5f;
    void apply(Scene& scene, SimModel& model, PbdSolver& solver) const;
};

}  // namespace vksim
