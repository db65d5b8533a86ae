#pragma once
// The live edit of a VBD solid's material (World::edit with a
// VbdMaterialEdit; docs/physics.md §16).
#include <cstdint>

#include "scene/scene.h"
#include "solvers/vbd/vbd_solver.h"

namespace vksim {

struct SimModel;

// The elastic model, Young's modulus and Poisson's ratio of "method": "vbd"
// solid `solid` (index into scene().solids) become `material`'s: its
// material row (mu, lambda) is rewritten as a build of the edited scene
// would write it, bit for bit, and uploaded (waits for the frames in
// flight). The density sets the masses, which are the particle store's:
// it cannot change. Throws std::invalid_argument, changing nothing, for a
// solid that is not a VBD solid, a changed density or a bad value.
struct VbdMaterialEdit {
    using Solver = VbdSolver;
    uint32_t solid = 0;
    ElasticMaterial material;
    void apply(Scene& scene, SimModel& model, VbdSolver& solver) const;
};

}  // namespace vksim
