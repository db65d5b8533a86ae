#include "solvers/vbd/vbd_material_edit.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "model/solid_geometry.h"
#include "solvers/sim_model.h"
#include "solvers/vbd/vbd_model_builder.h"

namespace vksim {

void VbdMaterialEdit::apply(Scene& scene, SimModel& model, VbdSolver& solver) const {
    if (solid >= scene.solids.size() || scene.solids[solid].method != SolidMethod::Vbd)
        throw std::invalid_argument(fmt::format("VbdMaterialEdit: solid {} is not a \"method\": \"vbd\" solid", solid));
    const std::vector<VbdObject>& objects = model.vbd.objects;
    const auto object =
        std::find_if(objects.begin(), objects.end(), [&](const VbdObject& o) { return o.solid == solid; });
    if (object == objects.end())
        throw std::invalid_argument(fmt::format("VbdMaterialEdit: solid {} has no tets", solid));
    checkMaterialEdit(object->params, material, fmt::format("VbdMaterialEdit: solid {}", solid));
    VbdModel edited = model.vbd;
    const auto k = static_cast<size_t>(object - objects.begin());
    edited.materials[edited.objects[k].material] = elasticMaterialRow(material);
    edited.objects[k].params = material;
    solver.setMaterials(edited);
    model.vbd = std::move(edited);
    scene.solids[solid].material = material;
}

}  // namespace vksim
