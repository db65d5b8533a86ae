#include "app/windowed_app.h"

#include <array>
#include <chrono>
#include <iostream>
#include <optional>
#include <span>

#include <fmt/format.h>

#include "app/run_outputs.h"
#include "app/simulation.h"
#include "app/timing_output.h"
#include "render/frames_in_flight.h"
#include "render/orbit_camera.h"
#include "render/renderer.h"
#include "render/swapchain.h"
#include "render/window.h"
#include "sim/model_summary.h"
#include "sim/state_hash.h"
#include "vk/barriers.h"
#include "vk/context.h"
#include "vk/vk_check.h"

namespace vksim {
namespace {

constexpr uint32_t kFramesInFlight = 2;
constexpr int kInitialWidth = 1280;
constexpr int kInitialHeight = 720;
constexpr uint32_t kTitleTimingFrames = 60;  // the GPU step time shown is the median of this many frames

std::string windowTitle(const Scene& scene) { return fmt::format("vksim — {}", scene.name); }

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

void submitFrame(const VulkanContext& ctx, const FrameSlot& frame, VkSemaphore renderFinished) {
    VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    wait.semaphore = frame.imageAcquired;
    // Only colour output needs the image: the simulation's compute passes
    // and the vertex work run before it is acquired.
    wait.stageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signal.semaphore = renderFinished;
    signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkCommandBufferSubmitInfo commands{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    commands.commandBuffer = frame.commands;
    VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.waitSemaphoreInfoCount = 1;
    submit.pWaitSemaphoreInfos = &wait;
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &commands;
    submit.signalSemaphoreInfoCount = 1;
    submit.pSignalSemaphoreInfos = &signal;
    VK_CHECK(vkQueueSubmit2(ctx.queue(), 1, &submit, frame.done));
}

// Everything a frame needs, alive for the whole loop.
struct Viewer {
    const VulkanContext& ctx;
    Window& window;
    Simulation& sim;
    Swapchain swapchain;
    FramesInFlight frames;
    Renderer renderer;
    OrbitCamera camera;
    std::span<FrameObserver* const> observers;  // --export, --trace
    std::array<std::optional<uint64_t>, kFramesInFlight> slotFrames{};  // the frame each slot holds

    Viewer(const VulkanContext& context, Window& w, Simulation& simulation, std::span<FrameObserver* const> obs)
        : ctx(context),
          window(w),
          sim(simulation),
          swapchain(context, w.framebufferExtent()),
          frames(context, kFramesInFlight),
          renderer(context, simulation.model(), simulation.solver(), swapchain.colorFormat(), swapchain.depthFormat(),
                   kFramesInFlight),
          camera(simulation.scene().camera),
          observers(obs) {}
    // The GPU may still use what the members own when an exception unwinds
    // the loop: let it finish before they are destroyed.
    ~Viewer() { vkDeviceWaitIdle(ctx.device()); }
    Viewer(const Viewer&) = delete;
    Viewer& operator=(const Viewer&) = delete;

    // The slot's previous frame has finished: its timestamps and its finite
    // check are ready. A non-finite frame ends the run with the pass that
    // produced it (found by replay); otherwise the observers get the frame.
    void collect(uint32_t slot) {
        sim.collectTimings(slot);
        sim.throwIfNonFinite(slot);
        if (!slotFrames[slot]) return;
        const uint64_t collected = *slotFrames[slot];
        slotFrames[slot].reset();
        for (FrameObserver* observer : observers) observer->frameCollected(slot, collected);
    }

    // Simulates and draws one frame in frame slot `slot`. False when nothing
    // was shown (the swapchain turned out to be out of date).
    bool drawFrame(uint32_t slot) {
        const FrameSlot& frame = frames[slot];
        VK_CHECK(vkWaitForFences(ctx.device(), 1, &frame.done, VK_TRUE, UINT64_MAX));
        collect(slot);
        const std::optional<uint32_t> image = swapchain.acquire(frame.imageAcquired);
        if (!image) return false;  // rebuilt before the next try; the fence stays signalled
        VK_CHECK(vkResetFences(ctx.device(), 1, &frame.done));

        const VkExtent2D extent = swapchain.extent();
        camera.apply(window.takeCameraInput(), float(extent.height));
        const CameraView view{camera.projection(float(extent.width) / float(extent.height)) * camera.view(),
                              camera.eye()};

        VK_CHECK(vkResetCommandBuffer(frame.commands, 0));
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        VK_CHECK(vkBeginCommandBuffer(frame.commands, &begin));
        const uint64_t frameIndex = sim.framesRecorded();
        sim.recordFrame(frame.commands, slot);
        for (FrameObserver* observer : observers) observer->frameRecorded(frame.commands, slot, frameIndex);
        slotFrames[slot] = frameIndex;
        computeToVertexInputBarrier(frame.commands);
        renderer.recordFrame(frame.commands, slot, swapchain.target(*image), view);
        VK_CHECK(vkEndCommandBuffer(frame.commands));

        submitFrame(ctx, frame, swapchain.renderFinished(*image));
        swapchain.present(*image);
        return true;
    }

    // Runs until the window closes or `maxFrames` frames have been shown.
    void run(std::optional<uint32_t> maxFrames) {
        TitleMeter meter(windowTitle(sim.scene()));
        uint64_t shown = 0;
        uint32_t slot = 0;
        while (!window.shouldClose() && (!maxFrames || shown < *maxFrames)) {
            window.pollEvents();
            if (window.minimized()) {
                window.waitEvents();  // nothing to draw into until the window comes back
                continue;
            }
            if (window.takeResized() || !swapchain.usable()) swapchain.recreate(window.framebufferExtent());
            if (!swapchain.usable()) continue;
            if (!drawFrame(slot)) continue;
            ++shown;
            slot = (slot + 1) % kFramesInFlight;
            meter.frameShown(window, sim.timer());
        }
        VK_CHECK(vkDeviceWaitIdle(ctx.device()));
        // `slot` is the next to be used, so it holds the oldest frame: collect it first.
        for (uint32_t i = 0; i < kFramesInFlight; ++i) collect((slot + i) % kFramesInFlight);
    }
};

}  // namespace

int runWindowed(const RunOptions& options, const Scene& scene) {
    // Declared before the context so that it outlives the surface the context owns.
    Window window(windowTitle(scene), kInitialWidth, kInitialHeight);

    ContextOptions contextOptions;
    contextOptions.validation = options.validate;
    contextOptions.deviceSelector = options.device;
    contextOptions.instanceExtensions = window.requiredInstanceExtensions();
    contextOptions.createSurface = [&window](VkInstance instance) { return window.createSurface(instance); };
    VulkanContext ctx(contextOptions);
    Simulation sim(ctx, scene, kFramesInFlight);
    if (!options.quiet) {
        std::cout << fmt::format("device: {} ({}, Vulkan {}, {})\n", ctx.deviceInfo().name, ctx.deviceInfo().type,
                                 ctx.deviceInfo().apiVersion, ctx.deviceInfo().driver);
        std::cout << describeModel(sim.model());
    }

    RunOutputs outputs(ctx, sim, options, kFramesInFlight, std::nullopt);  // outlives the viewer's frames
    Viewer(ctx, window, sim, outputs.observers()).run(options.frames);
    outputs.finish();

    const TimingReport report = sim.timer().report();
    if (!options.quiet) std::cout << formatTimingTable(report);
    if (!options.timingsFile.empty()) writeTimingsFile(options.timingsFile, report);
    if (options.printHash) {
        const std::vector<glm::vec4> positions = sim.solver().readPositions();
        std::cout << "state-hash: " << formatHash(hashPositions(positions)) << "\n";
    }
    const uint32_t messages = ctx.validationCounts().total();
    if (messages > 0) {
        std::cerr << fmt::format("vksim: validation reported {} error(s) and {} warning(s)\n",
                                 ctx.validationCounts().errors.load(), ctx.validationCounts().warnings.load());
        return kExitValidationMessages;
    }
    return kExitOk;
}

}  // namespace vksim
