#include "sim/non_finite_replay.h"

#include <cmath>

#include <fmt/format.h>

#include "sim/pbd_solver.h"
#include "sim/pd_solver.h"
#include "vk/barriers.h"
#include "vk/context.h"
#include "vk/gpu_timer.h"

namespace vksim {
namespace {

// "nan" whatever its sign bit (which means nothing); numbers as fmt writes them.
std::string component(float value) { return std::isnan(value) ? "nan" : fmt::format("{}", value); }

}  // namespace

std::optional<NonFiniteSite> findFirstNonFinitePass(const VulkanContext& ctx, const SimModel& model,
                                                    const SolverSettings& settings, uint64_t lastFrame) {
    PbdSolver solver(ctx, model);
    PdSolver pdSolver(ctx, model, solver.positions(), solver.velocities());  // as World runs them
    GpuTimer timer(ctx, 1,  // recordFrame times its passes
                   PbdSolver::passRunsPerFrame(model, settings) + PdSolver::passRunsPerFrame(model, settings));
    pdSolver.registerPasses(timer);
    solver.registerPasses(timer);
    FiniteProbe probe(ctx, model.particleCount());
    pdSolver.setFiniteProbe(&probe);
    solver.setFiniteProbe(&probe);
    for (uint64_t frame = 0; frame <= lastFrame; ++frame) {
        probe.beginFrame(frame);
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            timer.beginFrame(cmd, 0);
            pdSolver.recordFrame(cmd, settings, timer);
            solver.recordFrame(cmd, settings, timer);
            timer.endFrame(cmd);
            computeToHostBarrier(cmd);  // the probe's result, read below
        });
        if (std::optional<NonFiniteSite> site = probe.takeFinding()) return site;
    }
    return std::nullopt;
}

std::string describeNonFinite(const NonFiniteSite& site) {
    std::string where = fmt::format("frame {}", site.frame);
    if (site.position.substep) where += fmt::format(", substep {}", *site.position.substep);
    where += fmt::format(", pass \"{}\"", site.pass);
    if (site.position.iteration) where += fmt::format(" (iteration {})", *site.position.iteration);
    const std::string more =
        site.nonFiniteCount > 1 ? fmt::format(" (the first of {} non-finite values)", site.nonFiniteCount) : "";
    return fmt::format("simulation became non-finite in {}: particle {} {} = ({}, {}, {}){}", where, site.particle,
                       site.quantity, component(site.value.x), component(site.value.y), component(site.value.z),
                       more);
}

std::string describeUnlocatedNonFinite(uint64_t frame) {
    return fmt::format("simulation became non-finite in frame {} (positions or velocities at the end of the frame); "
                       "a replay from the initial state did not reproduce it, so the pass is unknown "
                       "(live edits are not replayed)",
                       frame);
}

}  // namespace vksim
