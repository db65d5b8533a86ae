#include "diagnostics/non_finite_replay.h"

#include <cmath>

#include <fmt/format.h>

#include "scene/json_reader.h"
#include "shaders/shared/finite_check_types.h"
#include "solvers/stepper.h"
#include "vk/barriers.h"
#include "vk/context.h"
#include "vk/gpu_timer.h"

namespace vksim {
namespace {

// "nan" whatever its sign bit (which means nothing); numbers as fmt writes them.
std::string component(float value) { return std::isnan(value) ? "nan" : fmt::format("{}", value); }

}  // namespace

std::optional<NonFiniteSite> findFirstNonFinitePass(const VulkanContext& ctx, const SimModel& model,
                                                    const SolverSettings& frameSettings, uint64_t lastFrame,
                                                    const SavedState* start) {
    // PBD replays on the per-colour path, which computes what the workgroup
    // path does (docs/physics.md §1) with a pass per stage, colour and
    // iteration to blame.
    SolverSettings settings = frameSettings;
    settings.pbd.path = PbdPath::PerColour;
    Stepper stepper(ctx, model, settings);  // as World steps it: the same plan
    GpuTimer timer(ctx, 1, stepper.maxRunsPerFrame(settings, nullptr));
    stepper.plan().registerPasses(timer);
    FiniteProbe probe(ctx, model.particleCount(), model.rigid.bodyCount());
    if (start) stepper.loadSections(start->sections, "the replay's start");
    for (uint64_t frame = start ? start->frame : 0; frame <= lastFrame; ++frame) {
        probe.beginFrame(frame);
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            timer.beginFrame(cmd, 0);
            StepRecorder rec(cmd, timer, stepper.plan(), &probe);
            stepper.recordFrame(rec, FrameInputs{settings});
            timer.endFrame(cmd);
            computeToHostBarrier(cmd);  // the probe's result, read below
        });
        if (std::optional<NonFiniteSite> site = probe.takeFinding()) {
            if (site->body) site->bodyName = model.rigid.names.at(*site->body);
            return site;
        }
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
    const glm::vec3 v = site.value;
    const bool finite = std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
    const std::string diverged = finite ? fmt::format(", past {:.3g}, where the next products overflow",
                                                      double(gpu::kDivergedMagnitude))
                                        : "";
    const std::string subject = site.body ? fmt::format("body {} {}", *site.body, json_input::quoteInput(site.bodyName))
                                          : fmt::format("particle {}", site.particle);
    return fmt::format("simulation became non-finite in {}: {} {} = ({}, {}, {}){}{}", where, subject, site.quantity,
                       component(v.x), component(v.y), component(v.z), diverged, more);
}

std::string describeUnlocatedNonFinite(uint64_t frame) {
    return fmt::format("simulation became non-finite in frame {} (particle positions or velocities, or body states, at the "
                       "end of the frame); "
                       "a replay from the initial state did not reproduce it, so the pass is unknown "
                       "(live edits are not replayed)",
                       frame);
}

}  // namespace vksim
