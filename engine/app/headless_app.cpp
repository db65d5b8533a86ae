#include "app/headless_app.h"

#include <iostream>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "app/headless_screenshot.h"
#include "app/output_guard.h"
#include "app/run_end.h"
#include "app/run_outputs.h"
#include "app/state_files.h"
#include "app/timing_output.h"
#include "io/quoted_input.h"
#include "run/frame_loop.h"
#include "run/stop_signal.h"
#include "solvers/model_summary.h"
#include "solvers/pbd/pbd_solver.h"
#include "solvers/pd/pd_solver.h"
#include "solvers/rigid/rigid_solver.h"
#include "vk/context.h"
#include "world/world.h"

namespace vksim {
namespace {

constexpr uint32_t kDefaultHeadlessFrames = 300;

}  // namespace

int runHeadless(const RunOptions& options, const Scene& scene) {
    refuseOutputsOverInputs(options, scene);  // before anything is written
    ContextOptions contextOptions;
    contextOptions.validation = options.validate;
    contextOptions.deviceSelector = options.device;
    VulkanContext ctx(contextOptions);
    if (options.display.mode == DisplayMode::Wireframe && !ctx.fillModeNonSolid())
        std::cerr << "vksim: this device has no fillModeNonSolid feature, so wireframe draws shaded\n";
    World sim(ctx, scene, kHeadlessFramesInFlight);
    if (!options.loadStateFile.empty()) loadStateFile(sim, options.loadStateFile);
    // Nothing reads the normals of a headless run unless it exports meshes or renders a screenshot.
    sim.setNormalsWanted(!options.exportDir.empty() || !options.screenshotFile.empty());
    // Each pass is timed only when its times are shown or written: a
    // timestamp pair around each is a large share of a per-colour frame
    // on a CPU driver (docs/architecture.md, the GPU timer); the step
    // total is always timed.
    sim.setPassTimings(!options.quiet || !options.timingsFile.empty() || !options.traceFile.empty());
    if (options.listPasses) {  // the step plan: every pass a frame of this scene can record
        std::cout << sim.plan().describe();
        return kExitOk;
    }
    if (!options.quiet) {
        std::cout << fmt::format("device: {} ({}, Vulkan {}, {})\n", ctx.deviceInfo().name, ctx.deviceInfo().type,
                                 ctx.deviceInfo().apiVersion, ctx.deviceInfo().driver);
        std::cout << describeModel(sim.model(), sim.diagnostics());
        // The dispatch path of each solver with objects.
        const SolverSettings& settings = sim.scene().solver;
        if (sim.model().pbd.particleCount > 0) std::cout << sim.solver<PbdSolver>().describePath(settings);
        if (sim.model().pd.particleCount > 0) std::cout << sim.solver<PdSolver>().describePath(settings);
        if (sim.model().rigid.bodyCount() > 0) std::cout << sim.solver<RigidSolver>().describePath(settings);
    }

    const uint32_t frames = options.frames.value_or(kDefaultHeadlessFrames);
    // The screenshot's pipelines before any output file is opened: a driver
    // that crashes compiling them (driver_crash.h) leaves no temporary file.
    std::unique_ptr<HeadlessScreenshot> screenshot;
    if (!options.screenshotFile.empty())
        screenshot = std::make_unique<HeadlessScreenshot>(ctx, sim, VkExtent2D{options.width, options.height},
                                                          kHeadlessFramesInFlight, sim.framesRecorded() + frames - 1,
                                                          options.screenshotFile,
                                                          options.display);
    const StopSignals stopSignals;  // from here on, SIGINT and SIGTERM stop at a frame boundary
    RunOutputs outputs(ctx, sim, options, kHeadlessFramesInFlight, frames);
    std::vector<FrameObserver*> observers(outputs.observers().begin(), outputs.observers().end());
    if (screenshot) observers.push_back(screenshot.get());
    uint64_t simulated = 0;
    try {
        simulated = simulateFrames(ctx, sim, frames, observers);
    } catch (const NonFiniteError& e) {
        outputs.finish();  // the trace of the frames before it is still worth reading
        std::cerr << "vksim: " << (scene.path.empty() ? "" : clipInput(scene.path) + ": ") << e.what() << "\n";
        return kExitFailure;
    }
    outputs.finish();

    const TimingReport report = sim.timer().report();
    if (!options.quiet) std::cout << formatTimingTable(report);
    if (!options.timingsFile.empty()) writeTimingsFile(options.timingsFile, report);
    if (const std::optional<int> stopped = endOfFrames(options, sim, simulated, frames)) return *stopped;
    return validationExitStatus(ctx);
}

}  // namespace vksim
