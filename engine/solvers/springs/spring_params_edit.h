#pragma once
// The live edit of a mass-spring cloth's springs (World::edit with a
// SpringParamsEdit).
#include <cstdint>

#include "scene/scene.h"
#include "solvers/springs/spring_solver.h"

namespace vksim {

struct SimModel;

// The spring params of mass-spring cloth `cloth` (index into
// scene().cloths) become `params`: stiffnesses, the bending model (springs,
// dihedral, quadratic, none), drag and the locking remedies, live; the
// result is the model a new World of the edited scene would build, bit for
// bit (spring_materials.h). Uploads the element arrays (waits for the
// frames in flight). The integrator is scene().solver.springs.integrator,
// read every frame. Throws std::invalid_argument, changing nothing, for a
// cloth that is not a mass-spring cloth, a topology change or a bad value.
struct SpringParamsEdit {
    using Solver = SpringSolver;
    uint32_t cloth = 0;
    SpringClothParams params;
    void apply(Scene& scene, SimModel& model, SpringSolver& solver) const;
};

}  // namespace vksim
