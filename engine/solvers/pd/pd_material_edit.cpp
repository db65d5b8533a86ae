#include "solvers/pd/pd_material_edit.h"

#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "model/solid_geometry.h"
#include "solvers/pd/pd_materials.h"
#include "solvers/pd/pd_solver.h"
#include "solvers/pd/pd_system.h"
#include "solvers/sim_model.h"

namespace vksim {
namespace {

// The edited weights into the system matrix and the solver; rolled back,
// and refused naming `where`, when the scene's relaxation would make the
// Jacobi iteration diverge with them.
void commitWeights(const Scene& scene, SimModel& model, PdSolver& solver, PdModel edited, const std::string& where) {
    buildPdSystem(edited, model.positions);
    solver.setWeights(edited);
    try {
        solver.jacobiParameters(scene.solver);
    } catch (const std::invalid_argument& e) {
        solver.setWeights(model.pd);
        throw std::invalid_argument(fmt::format("{}: {}", where, e.what()));
    }
    model.pd = std::move(edited);
}

}  // namespace

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
    commitWeights(scene, model, solver, std::move(edited), where);
    current = params;
}

void PdSolidMaterialEdit::apply(Scene& scene, SimModel& model, PdSolver& solver) const {
    if (solid >= scene.solids.size())
        throw std::invalid_argument(
            fmt::format("PdSolidMaterialEdit: solid {} out of range (the scene has {})", solid, scene.solids.size()));
    SolidObject& object = scene.solids[solid];
    const std::string where = "PdSolidMaterialEdit: " + describePdParams(scene, {PdOwner::Kind::Solid, solid},
                                                                           PdFamily::TetStrain);
    if (object.method != SolidMethod::Pd || !object.material)
        throw std::invalid_argument(where + ": not a projective dynamics solid with a material");
    checkMaterialEdit(*object.material, material, where);
    const PdSolidWeights weights = pdWeightsOf(material);
    PdModel edited = model.pd;
    for (auto [family, params] : {std::pair{PdFamily::TetStrain, weights.strain},
                                  std::pair{PdFamily::TetVolume, weights.volume}}) {
        const PdWeightGroup* group = findPdWeightGroup(model.pd, {PdOwner::Kind::Solid, solid}, family);
        if (!group) throw std::logic_error(where + ": a material solid without its strain and volume elements");
        applyPdParams(edited, *group, params);
    }
    commitWeights(scene, model, solver, std::move(edited), where);
    object.material = material;
    object.strain = weights.strain;
    object.volume = weights.volume;
}

}  // namespace vksim
