#include "solvers/rigid/rigid_one_workgroup_path.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "solvers/rigid/rigid_body_buffers.h"
#include "solvers/rigid/rigid_frame_items.h"

namespace vksim {
namespace {

RigidFrameItems frameItems(const RigidBodyBuffers& bodies, const SolverSettings& settings) {
    return rigidFrameItems(bodies.bodyCount(), bodies.pairCount(), settings.substeps, settings.rigid.iterations,
                           bodies.itemLoopBound());
}

}  // namespace

void RigidOneWorkgroupPath::declarePasses(StepPlan& plan) {
    stepPass_ = plan.declare(kStepPassName, StageKind::Solve, "rigid");
}

std::optional<std::string> RigidOneWorkgroupPath::misfit(const SolverSettings& settings) const {
    const RigidFrameItems items = frameItems(*inputs_.bodies, settings);
    if (items.perSubstep + items.perDispatch <= std::numeric_limits<uint32_t>::max()) return std::nullopt;
    return fmt::format(
        "solver.rigid: {} bodies with {} iterations make {} items a substep, more than the one-workgroup path "
        "counts (2^32); use \"path\": \"perSubstep\"",
        inputs_.bodies->bodyCount(), settings.rigid.iterations, items.perSubstep);
}

// One workgroup runs the span's items, as many a dispatch as stay within a
// CPU driver's loop limit (rigid_frame_items.h).
void RigidOneWorkgroupPath::record(StepRecorder& rec, const SolverSettings& settings, gpu::RigidPush push,
                                   SubstepSpan substeps) {
    const RigidBodyBuffers& bodies = *inputs_.bodies;
    const RigidFrameItems items = frameItems(bodies, settings);
    push.phase = gpu::kRigidPhaseItems;
    push.pairCount = bodies.pairCount();
    const uint64_t end = uint64_t(substeps.first + substeps.count) * items.perSubstep;
    for (uint64_t first = uint64_t(substeps.first) * items.perSubstep; first < end; first += items.perDispatch) {
        // Counted from the substep's start: the shader finds an item's place modulo perSubstep.
        push.first = static_cast<uint32_t>(first % items.perSubstep);
        push.itemCount = static_cast<uint32_t>(std::min(items.perDispatch, end - first));
        inputs_.stepBodies(rec, stepPass_, inputs_.stepKernel->workgroupSize(), push);
    }
    rec.countWork({.rigidOneWorkgroup = double(substeps.count) * settings.rigid.iterations *
                                        (double(bodies.bodyCount()) + double(bodies.pairCount()))});
}

}  // namespace vksim
