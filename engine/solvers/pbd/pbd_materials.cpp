#include "solvers/pbd/pbd_materials.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "io/quoted_input.h"
#include "model/solid_geometry.h"
#include "solvers/pbd/pbd_model_builder.h"
#include "solvers/pbd/pbd_solver.h"
#include "solvers/pbd/pbd_tearing.h"
#include "solvers/sim_model.h"

namespace vksim {
namespace {

void setPbdFamilyMaterial(Scene& scene, PbdModel& pbd, uint32_t cloth, ConstraintFamily family,
                          const ConstraintParams& params) {
    if (cloth >= scene.cloths.size())
        throw std::invalid_argument(
            fmt::format("PbdMaterialEdit: cloth {} out of range (the scene has {})", cloth, scene.cloths.size()));
    ClothObject& object = scene.cloths[cloth];
    const std::string where = fmt::format("PbdMaterialEdit: cloth '{}' {}", clipInput(object.name), familyName(family));
    if (object.method == SolverMethod::Pd)
        throw std::invalid_argument(where +
                                    ": a projective dynamics cloth; its parameters are set by a PdMaterialEdit");
    if (family != ConstraintFamily::Stretch && family != ConstraintFamily::Bending &&
        family != ConstraintFamily::Attachment)
        throw std::invalid_argument(where + ": unknown family");
    ConstraintParams& current = family == ConstraintFamily::Stretch   ? object.stretch
                                : family == ConstraintFamily::Bending ? object.bending
                                                                      : object.attachment;
    if (params.enabled != current.enabled)
        throw std::invalid_argument(where + ": enabling or disabling a family is not live (it adds or removes "
                                            "constraints); edit the scene and build a new World");
    if (!(params.stiffness >= 0.0f && params.stiffness <= 1.0f))
        throw std::invalid_argument(fmt::format("{}: stiffness {} is not in [0, 1]", where, params.stiffness));
    if (!(params.compliance >= 0.0f) || !std::isfinite(params.compliance))
        throw std::invalid_argument(fmt::format("{}: compliance {} is not a finite value >= 0", where,
                                                params.compliance));
    current = params;
    pbd.materials.at(materialIndex(cloth, family)) = toMaterial(params);
}

}  // namespace

void PbdMaterialEdit::apply(Scene& scene, SimModel& model, PbdSolver& solver) const {
    setPbdFamilyMaterial(scene, model.pbd, cloth, family, params);  // throws before any change
    solver.setMaterials(model.pbd.materials);
}

void PbdTearEdit::apply(Scene& scene, SimModel& model, PbdSolver& solver) const {
    if (cloth >= scene.cloths.size())
        throw std::invalid_argument(
            fmt::format("PbdTearEdit: cloth {} out of range (the scene has {})", cloth, scene.cloths.size()));
    ClothObject& object = scene.cloths[cloth];
    const std::string where = fmt::format("PbdTearEdit: cloth '{}'", clipInput(object.name));
    if (!object.tearing.enabled || object.method != SolverMethod::Pbd)
        throw std::invalid_argument(where + ": it does not tear (\"tearing\" is set when the scene loads)");
    if (!(strain > 0.0f && strain <= 10.0f))
        throw std::invalid_argument(fmt::format("{}: strain {} is not in (0, 10]", where, strain));
    object.tearing.strain = strain;
    model.pbd.tearStrains.at(materialIndex(cloth, ConstraintFamily::Stretch)) = strain;
    std::vector<float> rows = solver.tearing()->strains();
    rows.at(materialIndex(cloth, ConstraintFamily::Stretch)) = strain;
    solver.setTearStrains(rows);
}

void PbdSolidMaterialEdit::apply(Scene& scene, SimModel& model, PbdSolver& solver) const {
    if (solid >= scene.solids.size())
        throw std::invalid_argument(
            fmt::format("PbdSolidMaterialEdit: solid {} out of range (the scene has {})", solid, scene.solids.size()));
    SolidObject& object = scene.solids[solid];
    const std::string where = fmt::format("PbdSolidMaterialEdit: solid '{}'", clipInput(object.name));
    if (object.method != SolidMethod::Xpbd || !object.material)
        throw std::invalid_argument(where + ": not an XPBD solid (\"method\": \"xpbd\")");
    checkMaterialEdit(*object.material, material, where);
    size_t row = 0;
    while (row < model.pbd.elasticMaterialSolids.size() && model.pbd.elasticMaterialSolids[row] != solid) ++row;
    if (row == model.pbd.elasticMaterialSolids.size())
        throw std::logic_error(where + ": no elastic material row in the model");
    object.material = material;
    model.pbd.elasticMaterials[row] = elasticMaterialRow(*object.material);
    solver.setElasticMaterials(model.pbd.elasticMaterials);
}

}  // namespace vksim
