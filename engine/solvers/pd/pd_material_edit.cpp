#include "solvers/pd/pd_material_edit.h"

#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "solvers/pd/pd_materials.h"
#include "solvers/pd/pd_solver.h"
#include "solvers/pd/pd_system.h"
#include "solvers/sim_model.h"

namespace vksim {

void PdMaterialEdit::apply(Scene& scene, SimModel& model, PdSolver& solver) const {
    PdParams& current = pdParams(scene, owner, family);  // throws for a bad owner or family
    const std::string where = "PdMaterialEdit: " + describePdParams(scene, owner, family);
    if (params.enabled != current.enabled)
        throw std::invalid_argument(where + ": enabling or disabling a family is not live (it adds or removes "
                                            "elements); edit the scene and build a new World");
    validatePdParams(params, where);
    const PdWeightGroup* group = findPdWeightGroup(model.pd, owner, family);
    if (!group) throw std::invalid_argument(where + ": the object has no elements of this family");
    PdModel edited = model.pd;
    applyPdParams(edited, *group, params);
    buildPdSystem(edited, model.positions);
    solver.setWeights(edited);
    try {
        solver.jacobiParameters(scene.solver);
    } catch (const std::invalid_argument& e) {
        solver.setWeights(model.pd);
        throw std::invalid_argument(fmt::format("{}: {}", where, e.what()));
    }
    model.pd = std::move(edited);
    current = params;
}

}  // namespace vksim
