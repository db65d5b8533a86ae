#include "app/windowed_app.h"

#include <chrono>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "app/output_guard.h"
#include "app/run_end.h"
#include "app/run_outputs.h"
#include "app/state_files.h"
#include "app/timing_output.h"
#include "app/viewer.h"
#include "app/viewer_providers.h"
#include "render/window.h"
#include "run/stop_signal.h"
#include "solvers/model_summary.h"
#include "vk/context.h"
#include "vk/vk_check.h"
#include "world/world.h"

namespace vksim {
namespace {

constexpr uint32_t kFramesInFlight = Viewer::kFramesInFlight;
// A screenshot run given no --frames runs as long as a headless one.
constexpr uint32_t kDefaultScreenshotFrames = 300;
constexpr uint32_t kTitleTimingFrames = 60;  // the GPU step time shown is the median of this many frames

std::string windowTitle(const Scene& scene) { return fmt::format("vksim — {}", scene.name); }

VkPresentModeKHR vulkanPresentMode(PresentMode mode) {
    switch (mode) {
        case PresentMode::Mailbox: return VK_PRESENT_MODE_MAILBOX_KHR;
        case PresentMode::Immediate: return VK_PRESENT_MODE_IMMEDIATE_KHR;
        case PresentMode::Fifo: break;
    }
    return VK_PRESENT_MODE_FIFO_KHR;
}


// Counts presented frames and, once a second, shows the frame rate and the
// simulation's GPU time in the window title.
class TitleMeter {
public:
    explicit TitleMeter(std::string baseTitle) : baseTitle_(std::move(baseTitle)), since_(Clock::now()) {}

    void frameShown(Window& window, GpuTimer& timer) {
        ++frames_;
        const double seconds = std::chrono::duration<double>(Clock::now() - since_).count();
        if (seconds < 1.0) return;
        const double stepMs = timer.report(kTitleTimingFrames).step.medianMs;
        window.setTitle(fmt::format("{} | {:.1f} fps | GPU step {:.2f} ms", baseTitle_, frames_ / seconds, stepMs));
        frames_ = 0;
        since_ = Clock::now();
    }

private:
    using Clock = std::chrono::steady_clock;
    std::string baseTitle_;
    Clock::time_point since_;
    uint32_t frames_ = 0;
};

// Runs until the window closes, `maxFrames` frames have been shown or a
// signal asks it to stop (stop_signal.h); with a screenshot file, the last
// frame is copied and written to it (not when stopped before it).
void runLoop(Viewer& viewer, Window& window, std::optional<uint32_t> maxFrames, const std::string& screenshotFile) {
    TitleMeter meter(windowTitle(viewer.simulation().scene()));
    while (!window.shouldClose() && (!maxFrames || viewer.framesShown() < *maxFrames) && !stopRequested()) {
        if (!screenshotFile.empty() && maxFrames && viewer.framesShown() + 1 == *maxFrames) viewer.requestCapture();
        if (viewer.tick()) meter.frameShown(window, viewer.simulation().timer());
    }
    viewer.finish();
    if (!screenshotFile.empty() && !stopRequested()) {
        if (!viewer.capture().recorded())
            throw std::runtime_error("the window closed before the screenshot frame was shown");
        viewer.capture().writePng(screenshotFile);
    }
}

}  // namespace

int runWindowed(const RunOptions& options, const Scene& scene) {
    refuseOutputsOverInputs(options, scene);  // before anything is written
    // Declared before the context so that it outlives the surface the context owns.
    Window window(windowTitle(scene), int(options.width), int(options.height));

    ContextOptions contextOptions;
    contextOptions.validation = options.validate;
    contextOptions.deviceSelector = options.device;
    contextOptions.instanceExtensions = window.requiredInstanceExtensions();
    contextOptions.createSurface = [&window](VkInstance instance) { return window.createSurface(instance); };
    VulkanContext ctx(contextOptions);
    if (options.display.mode == DisplayMode::Wireframe && !ctx.fillModeNonSolid())
        std::cerr << "vksim: this device has no fillModeNonSolid feature, so wireframe draws shaded\n";
    World sim(ctx, scene, kFramesInFlight);
    if (!options.loadStateFile.empty()) loadStateFile(sim, options.loadStateFile);
    if (!options.quiet) {
        std::cout << fmt::format("device: {} ({}, Vulkan {}, {})\n", ctx.deviceInfo().name, ctx.deviceInfo().type,
                                 ctx.deviceInfo().apiVersion, ctx.deviceInfo().driver);
        std::cout << describeModel(sim.model(), sim.diagnostics());
    }

    const StopSignals stopSignals;  // from here on, SIGINT and SIGTERM stop at a frame boundary
    RunOutputs outputs(ctx, sim, options, kFramesInFlight, std::nullopt);  // outlives the viewer's frames
    {
        ViewerOptions viewerOptions;
        viewerOptions.presentMode = vulkanPresentMode(options.presentMode);
        viewerOptions.overlayVisible = options.overlay;
        viewerOptions.timeEveryPass = !options.timingsFile.empty() || !options.traceFile.empty();
        viewerOptions.display = options.display;
        viewerOptions.showConvergence = options.showConvergence;
        Viewer viewer(ctx, window, sim, outputs.observers(), viewerOptions);
        ViewerProviders providers(viewer);  // residual plot, mouse drag, material and collider sliders
        viewer.setProviders(providers.providers());
        if (!viewer.swapchain().presentModeNotice().empty()) std::cerr << viewer.swapchain().presentModeNotice() << "\n";
        std::optional<uint32_t> frames = options.frames;
        if (!options.screenshotFile.empty() && !frames) frames = kDefaultScreenshotFrames;
        runLoop(viewer, window, frames, options.screenshotFile);
        outputs.finish();
        // The simulation running at the end (the overlay may have reset it or changed scene).
        World& last = viewer.simulation();
        const TimingReport report = last.timer().report();
        if (!options.quiet) {
            std::cout << formatTimingTable(report);
            const RenderTimer& draw = viewer.renderTimer();
            std::cout << fmt::format("GPU time per frame drawing (median of {} frames): scene {:.3f} ms, overlay "
                                     "{:.3f} ms\n",
                                     draw.framesCollected(), draw.medianSceneMs(), draw.medianOverlayMs());
        }
        if (!options.timingsFile.empty()) writeTimingsFile(options.timingsFile, report);
        if (const std::optional<int> stopped = endOfFrames(options, last, viewer.framesShown(), frames))
            return *stopped;
    }
    return validationExitStatus(ctx);
}

}  // namespace vksim
