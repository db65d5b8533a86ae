#include "solvers/pd/pd_jacobi_path_choice.h"

#include "solvers/pd/pd_jacobi_in_workgroup.h"

namespace vksim {

PdJacobiPath choosePdJacobiPath(const PdSettings& settings, uint32_t rows) {
    if (settings.jacobiIterations > PdJacobiInWorkgroup::kMaxOmegas) return PdJacobiPath::PerIteration;
    if (settings.jacobiPath != PdJacobiPath::Auto) return settings.jacobiPath;
    return rows <= kPdOneWorkgroupRows ? PdJacobiPath::Workgroup : PdJacobiPath::PerIteration;
}

}  // namespace vksim
