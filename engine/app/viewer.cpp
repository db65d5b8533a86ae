#include "app/viewer.h"

#include <algorithm>
#include <filesystem>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "diagnostics/frame_finite_check.h"
#include "render/anchor_lines.h"
#include "render/image_barrier.h"
#include "render/offscreen_target.h"
#include "render/window.h"
#include "scene/scene_loader.h"
#include "solvers/pbd/pbd_solver.h"
#include "solvers/rigid/rigid_solver.h"
#include "ui/overlay.h"
#include "ui/viewer_panels.h"
#include "vk/barriers.h"
#include "vk/context.h"
#include "vk/gpu_wait.h"
#include "vk/vk_check.h"
#include "world/world.h"

namespace vksim {
namespace {

void submitFrame(const VulkanContext& ctx, const FrameSlot& frame, VkSemaphore renderFinished) {
    VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    wait.semaphore = frame.imageAcquired;
    // Only colour output needs the image: the simulation's compute passes
    // and the vertex work run before it is acquired. (A screenshot's copy
    // comes after colour output, so it is ordered after the wait too.)
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
    VK_CHECK_FAULT(FaultSite::Submit, vkQueueSubmit2(ctx.queue(), 1, &submit, frame.done), "submitting a window frame");
}

constexpr size_t kHistory = 240;         // frames in the overlay's plots
constexpr uint32_t kTimingFrames = 120;  // the timing table's median/max window

void pushHistory(std::vector<float>& history, float value) {
    if (history.size() == kHistory) history.erase(history.begin());
    history.push_back(value);
}

// The scene files next to `scenePath` (scenes/*.json for the shipped ones).
std::vector<std::string> listSceneFiles(const std::string& scenePath) {
    std::vector<std::string> files;
    std::error_code error;
    const std::filesystem::path dir = std::filesystem::path(scenePath).parent_path();
    for (const auto& entry : std::filesystem::directory_iterator(dir.empty() ? "." : dir, error))
        if (entry.path().extension() == ".json") files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

Viewer::Viewer(const VulkanContext& ctx, Window& window, World& sim, std::span<FrameObserver* const> observers,
               const ViewerOptions& options)
    : ctx_(ctx),
      window_(window),
      sim_(&sim),
      observers_(observers),
      swapchain_(ctx, window.framebufferExtent(), options.presentMode),
      frames_(ctx, kFramesInFlight),
      renderer_(std::make_unique<Renderer>(ctx, sim.model(), sim.particles(), sim.solver<RigidSolver>().states(),
                                           sim.colliderRows(), sim.contacts(), sim.wind(), swapchain_.colorFormat(),
                                           swapchain_.depthFormat(),
                                           kFramesInFlight)),
      camera_(sim.scene().camera),
      renderTimer_(ctx, kFramesInFlight),
      capture_(ctx) {
    if (options.overlay)
        overlay_ = std::make_unique<Overlay>(ctx, window.handle(), swapchain_.colorFormat(), kFramesInFlight);
    controls_.overlayVisible = options.overlay && options.overlayVisible;
    timeEveryPass_ = options.timeEveryPass;
    controls_.display = options.display;
    controls_.convergenceOpenRequested = options.showConvergence;
    sceneFiles_ = listSceneFiles(sim.scene().path);
    lastShownSeconds_ = glfwGetTime();
}

Viewer::~Viewer() { ctx_.waitIdleForTeardown(); }

// The slot's previous frame has finished: its timestamps and its finite
// check are ready. A non-finite frame ends the run with the pass that
// produced it (found by replay); otherwise the observers get the frame.
void Viewer::collect(uint32_t slot) {
    renderTimer_.collect(slot);
    sim_->collectTimings(slot);
    sim_->throwIfNonFinite(slot);
    if (!slotFrames_[slot]) return;
    const uint64_t collected = *slotFrames_[slot];
    slotFrames_[slot].reset();
    const FrameTimeline& timeline = sim_->timer().lastCollectedFrame();
    pushHistory(stepMs_, float((timeline.endNs - timeline.beginNs) * 1e-6));
    for (FrameObserver* observer : observers_) observer->frameCollected(slot, collected);
}

bool Viewer::tick() {
    window_.pollEvents();
    if (window_.minimized()) {
        window_.waitEvents();  // nothing to draw into until the window comes back
        return false;
    }
    applyKeys();
    applyRequests();
    if (window_.takeResized() || !swapchain_.usable()) swapchain_.recreate(window_.framebufferExtent());
    if (!swapchain_.usable()) return false;
    if (!drawFrame(slot_)) return false;
    slot_ = (slot_ + 1) % kFramesInFlight;
    ++framesShown_;
    const double now = glfwGetTime();
    pushHistory(frameMs_, float((now - lastShownSeconds_) * 1000.0));
    lastShownSeconds_ = now;
    return true;
}

void Viewer::applyKeys() {
    const KeyCommands keys = window_.takeKeyCommands();
    if (keys.toggleOverlay && overlay_) controls_.overlayVisible = !controls_.overlayVisible;
    if (keys.togglePause) controls_.paused = !controls_.paused;
    if (keys.stepOnce) {
        controls_.paused = true;
        controls_.stepOnce = true;
    }
    if (keys.toggleColliders) controls_.display.colliders = !controls_.display.colliders;
    if (keys.toggleContacts) controls_.display.contacts = !controls_.display.contacts;
    if (keys.nextDisplayMode)
        controls_.display.mode = DisplayMode((uint32_t(controls_.display.mode) + 1) % kDisplayModeNames.size());
    if (keys.displayMode >= 0) controls_.display.mode = DisplayMode(keys.displayMode);
}

// Reset, reload, scene changes and a solid's change of solver rebuild the
// simulation between frames; a scene that fails to load leaves the running
// one as it is and shows why.
void Viewer::applyRequests() {
    const bool reset = std::exchange(controls_.resetRequested, false);
    const bool reload = std::exchange(controls_.reloadRequested, false);
    const std::string load = std::exchange(controls_.loadRequest, {});
    const auto solidMethod = std::exchange(solidMethodRequest_, std::nullopt);
    if ((!reset && !reload && load.empty() && !solidMethod) || !observers_.empty()) return;
    try {
        if (solidMethod) switchSolidMethod(solidMethod->first, solidMethod->second);
        else if (!load.empty()) rebuild(loadScene(load), true);
        else if (reload) rebuild(loadScene(sim_->scene().path), false);
        else rebuild(sim_->scene(), false);  // with the live solver edits
        error_.clear();
    } catch (const std::exception& e) {
        error_ = e.what();
    }
}

// The scene with the solid's new method, rebuilt; then each object's
// particles (found by name: the solvers' ranges move) take the positions and
// velocities they had. The world restarts its frame count.
void Viewer::switchSolidMethod(uint32_t solid, SolidMethod method) {
    Scene scene = sim_->scene();
    if (solid >= scene.solids.size() || scene.solids[solid].method == method) return;
    scene.solids[solid].method = method;
    finish();
    const std::vector<glm::vec4> x = sim_->particles().readPositions(), v = sim_->particles().readVelocities();
    const std::vector<ObjectRange> before = sim_->model().objects;
    rebuild(scene, false);
    std::vector<glm::vec4> x1 = sim_->particles().readPositions(), v1 = sim_->particles().readVelocities();
    for (const ObjectRange& now : sim_->model().objects)
        for (const ObjectRange& was : before)
            if (was.name == now.name && was.particleCount == now.particleCount)
                for (uint32_t k = 0; k < now.particleCount; ++k) {
                    x1[now.firstParticle + k] = x[was.firstParticle + k];
                    v1[now.firstParticle + k] = v[was.firstParticle + k];
                }
    std::vector<glm::vec3> positions, velocities;
    for (size_t i = 0; i < x1.size(); ++i) {
        positions.emplace_back(x1[i]);
        velocities.emplace_back(v1[i]);
    }
    sim_->setPositions(positions);
    sim_->setVelocities(velocities);
}

void Viewer::rebuild(const Scene& scene, bool resetCamera) {
    finish();
    // Built before anything is let go, so a failure leaves the viewer as it was.
    auto sim = std::make_unique<World>(ctx_, scene, kFramesInFlight);
    renderer_.reset();  // binds the old simulation's buffers
    ownedSim_ = std::move(sim);
    sim_ = ownedSim_.get();
    renderer_ = std::make_unique<Renderer>(ctx_, sim_->model(), sim_->particles(), sim_->solver<RigidSolver>().states(),
                                           sim_->colliderRows(), sim_->contacts(), sim_->wind(),
                                           swapchain_.colorFormat(),
                                           swapchain_.depthFormat(),
                                           kFramesInFlight);
    if (resetCamera) camera_ = OrbitCamera(sim_->scene().camera);
    sceneFiles_ = listSceneFiles(sim_->scene().path);
    stepMs_.clear();
    residualTracking_ = false;  // a new simulation starts untracked: switched on again next frame if shown
    picking_ = false;
    controls_.parameterError.clear();  // it named the old simulation's values
}

// Frames the particles' bounding box: a read-back (waits for the GPU), only
// on request.
void Viewer::frameScene() {
    const std::vector<glm::vec4> positions = sim_->particles().readPositions();
    if (positions.empty()) return;
    glm::vec3 lo(positions.front()), hi(positions.front());
    for (const glm::vec4& p : positions) {
        lo = glm::min(lo, glm::vec3(p));
        hi = glm::max(hi, glm::vec3(p));
    }
    camera_.frame(lo, hi);
}

void Viewer::updatePicking(VkExtent2D extent) {
    if (!providers_.picker) return;
    const bool down = window_.pickButtonDown() && !(overlay_ && controls_.overlayVisible && overlay_->wantsMouse());
    if (!down) {
        if (picking_) providers_.picker->release();
        picking_ = false;
        return;
    }
    Ray ray;
    camera_.rayThrough(window_.cursorPixels(), extent, ray.origin, ray.direction);
    if (!picking_) picking_ = providers_.picker->beginPick(ray);
    else providers_.picker->dragTo(ray);
}

bool Viewer::simulateThisFrame() {
    if (controls_.paused) return std::exchange(controls_.stepOnce, false);
    return displayFrames_++ % std::max(controls_.slowMotion, 1u) == 0;
}

OverlayView Viewer::overlayView() {
    OverlayView view;
    view.sceneName = sim_->scene().name;
    view.scenePath = sim_->scene().path;
    view.frame = sim_->framesRecorded();
    view.timings = sim_->timer().report(kTimingFrames);
    view.stepMs = stepMs_;
    view.frameMs = frameMs_;
    view.sceneMs = renderTimer_.lastSceneMs();
    view.overlayMs = renderTimer_.lastOverlayMs();
    view.solver = &sim_->scene().solver;
    view.passRuns = [sim = sim_](const SolverSettings& s) { return sim->passRunsPerFrame(s); };
    view.maxPassRuns = sim_->timerCapacity();
    if (sim_->model().pbd.particleCount > 0) {
        view.pbdPathFor = [sim = sim_](const SolverSettings& s) { return sim->solver<PbdSolver>().pathFor(s); };
        view.pbdPathMisfit = [sim = sim_](PbdPath path) { return sim->solver<PbdSolver>().pathMisfit(path); };
    }
    view.sceneFiles = sceneFiles_;
    view.error = error_;
    view.resetAllowed = observers_.empty();
    view.wireframeAvailable = renderer_->wireframeAvailable();
    view.wind = someObjectFeelsWind(sim_->model());
    view.anchors = AnchorLines::anyIn(sim_->model());
    return view;
}

// Simulates and draws one frame in frame slot `slot`. False when nothing was
// shown (the swapchain turned out to be out of date).
bool Viewer::drawFrame(uint32_t slot) {
    const FrameSlot& frame = frames_[slot];
    waitForFences(ctx_, std::span(&frame.done, 1), "waiting for a window frame");
    collect(slot);
    const std::optional<uint32_t> image = swapchain_.acquire(frame.imageAcquired);
    if (!image) return false;  // rebuilt before the next try; the fence stays signalled
    VK_CHECK(vkResetFences(ctx_.device(), 1, &frame.done));

    const RenderTarget target = swapchain_.target(*image);
    const bool drawOverlay = overlay_ && controls_.overlayVisible;
    if (drawOverlay) {
        overlay_->beginFrame();
        drawViewerPanels(overlayView(), providers_, controls_);
    }
    window_.setUiCapture(drawOverlay && overlay_->wantsMouse(), drawOverlay && overlay_->wantsKeyboard());
    // The residual reduction runs only while someone looks at its plot.
    const bool tracking = drawOverlay && controls_.convergenceShown;
    if (tracking != residualTracking_ && providers_.setResidualTracking) providers_.setResidualTracking(tracking);
    residualTracking_ = tracking;
    const CameraInput input = window_.takeCameraInput();
    if (input.frameScene || std::exchange(controls_.frameRequested, false)) frameScene();
    if (std::exchange(controls_.cameraResetRequested, false)) camera_.reset();
    camera_.apply(input, float(target.extent.height));
    updatePicking(target.extent);
    const CameraView view = camera_.cameraView(target.extent);

    VK_CHECK(vkResetCommandBuffer(frame.commands, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(frame.commands, &begin));
    if (simulateThisFrame()) {
        // Pass timestamps cost (a large share of a per-colour frame on a
        // CPU driver, docs/viewer.md): only while the overlay shows them or
        // an output writes them.
        sim_->setPassTimings(drawOverlay || timeEveryPass_);
        const uint64_t frameIndex = sim_->framesRecorded();
        sim_->recordFrame(frame.commands, slot);
        for (FrameObserver* observer : observers_) observer->frameRecorded(frame.commands, slot, frameIndex);
        slotFrames_[slot] = frameIndex;
    }
    renderer_->recordCompute(frame.commands, controls_.display);
    computeToVertexInputBarrier(frame.commands);
    renderTimer_.begin(frame.commands, slot);
    renderTimer_.mark(frame.commands, slot, RenderTimer::kSceneBegin);
    renderer_->recordFrame(frame.commands, slot, target, view, controls_.display);
    renderTimer_.mark(frame.commands, slot, RenderTimer::kSceneEnd);
    if (drawOverlay) overlay_->record(frame.commands, slot, target);
    renderTimer_.mark(frame.commands, slot, RenderTimer::kOverlayEnd);
    VkImageLayout layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    if (captureRequested_) {
        recordCapture(frame.commands, slot, target, view);
        if (swapchain_.copyable()) layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        captureRequested_ = false;
    }
    colorToPresent(frame.commands, target.color, layout);
    VK_CHECK(vkEndCommandBuffer(frame.commands));

    submitFrame(ctx_, frame, swapchain_.renderFinished(*image));
    swapchain_.present(*image);
    return true;
}

// Copies the frame being shown. A surface whose images cannot be copied gets
// the same frame drawn a second time into an offscreen image of its size and
// format, and that one is copied.
void Viewer::recordCapture(VkCommandBuffer cmd, uint32_t slot, const RenderTarget& shown, const CameraView& view) {
    if (swapchain_.copyable()) {
        capture_.record(cmd, shown);
        return;
    }
    captureTarget_ = std::make_unique<OffscreenTarget>(ctx_, shown.extent, shown.colorFormat);
    renderer_->recordFrame(cmd, slot, captureTarget_->target(), view, controls_.display);
    capture_.record(cmd, captureTarget_->target());
}

void Viewer::finish() {
    waitForQueue(ctx_, "waiting for the last window frames");
    // `slot_` is the next to be used, so it holds the oldest frame: collect it first.
    for (uint32_t i = 0; i < kFramesInFlight; ++i) collect((slot_ + i) % kFramesInFlight);
}

}  // namespace vksim
