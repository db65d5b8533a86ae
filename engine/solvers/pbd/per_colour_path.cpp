#include "solvers/pbd/per_colour_path.h"

#include "solvers/pbd/colour_sweep.h"
#include "solvers/pbd/iteration_stages.h"
#include "solvers/pbd/pbd_constraints.h"

namespace vksim {

const GpuBuffer& PerColourPath::recordSolve(StepRecorder& rec, const SubstepContext& sub) {
    const uint32_t iterations = sub.frame.settings.pbd.iterations;
    return stages_.recordIterations(rec, sub, false, [&](uint32_t it, StepPosition at) {
        colours_.record(rec, constraints_.groups(), it, iterations, sub.h, at);
    });
}

}  // namespace vksim
