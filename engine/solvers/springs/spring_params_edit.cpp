#include "solvers/springs/spring_params_edit.h"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "solvers/sim_model.h"
#include "solvers/springs/spring_materials.h"
#include "solvers/springs/spring_solver.h"

namespace vksim {

void SpringParamsEdit::apply(Scene& scene, SimModel& model, SpringSolver& solver) const {
    if (cloth >= scene.cloths.size() || scene.cloths[cloth].method != SolverMethod::Springs)
        throw std::invalid_argument(fmt::format("SpringParamsEdit: cloth {} is not a mass-spring cloth", cloth));
    const std::vector<SpringObject>& objects = model.springs.objects;
    const auto object = std::find_if(objects.begin(), objects.end(),
                                     [&](const SpringObject& o) { return o.cloth == cloth; });
    if (object == objects.end())
        throw std::invalid_argument(fmt::format("SpringParamsEdit: cloth {} has no springs", cloth));
    MsModel edited = model.springs;
    setSpringParams(edited, static_cast<uint32_t>(object - objects.begin()), params);  // throws before any change
    solver.setMaterials(edited);
    model.springs = std::move(edited);
    scene.cloths[cloth].springs = params;
}

}  // namespace vksim
