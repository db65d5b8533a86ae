#pragma once
// The windowed frame loop, one turn at a time: events, swapchain upkeep
// (resize, minimise, out-of-date), the overlay's requests (pause, step,
// reset, scene changes), then one frame simulated (or not, when paused or
// in slow motion), drawn into the next swapchain image with the overlay on
// top, and presented. Kept apart from runWindowed so tests can drive the
// window (resize, iconify) between turns.
#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "render/frames_in_flight.h"
#include "render/image_capture.h"
#include "render/orbit_camera.h"
#include "render/render_timer.h"
#include "render/renderer.h"
#include "render/swapchain.h"
#include "run/frame_observer.h"
#include "ui/overlay_data.h"

namespace vksim {

class VulkanContext;
class World;
class Window;
class Overlay;
class OffscreenTarget;

struct ViewerOptions {
    VkPresentModeKHR presentMode = VK_PRESENT_MODE_FIFO_KHR;
    bool overlay = true;         // build the ImGui overlay (F1/Tab toggles it)
    bool overlayVisible = true;  // shown from the first frame
    // Every pass timed in every frame (an output writes their times: --timings,
    // --trace); else passes are timed only while the overlay shows them
    // (World::setPassTimings).
    bool timeEveryPass = false;
    DisplaySettings display;
    bool showConvergence = false;  // the Convergence panel starts open
};

class Viewer {
public:
    static constexpr uint32_t kFramesInFlight = 2;

    // `sim` must have been built with kFramesInFlight frame slots. Reset and
    // scene changes replace it with a simulation the viewer owns (see
    // simulation()); they are refused while `observers` follow it.
    Viewer(const VulkanContext& ctx, Window& window, World& sim, std::span<FrameObserver* const> observers,
           const ViewerOptions& options = {});
    // The GPU may still use what the members own: waits for it first.
    ~Viewer();
    Viewer(const Viewer&) = delete;
    Viewer& operator=(const Viewer&) = delete;

    // One turn of the loop; true when a frame was shown (false while
    // minimised, or when the swapchain had to be rebuilt first).
    bool tick();
    // The next frame shown is also copied for a screenshot (see capture()).
    void requestCapture() { captureRequested_ = true; }
    // Waits for the GPU and collects every frame still in flight (timings,
    // finite checks, observers); after it the capture's pixels are readable.
    void finish();

    // Where the simulation's data comes from for the overlay's residual and
    // picking panels (unset: "not available").
    void setProviders(OverlayProviders providers) { providers_ = std::move(providers); }
    ViewerControls& controls() { return controls_; }
    // Why the last reset, reload or scene change failed ("" after one succeeds).
    const std::string& lastError() const { return error_; }

    World& simulation() { return *sim_; }
    // Steps solid `solid` (Scene::solids) with `method` from the next frame:
    // the simulation is rebuilt with it, every object carrying on from where
    // it is (its positions and velocities), at the same frame.
    void requestSolidMethod(uint32_t solid, SolidMethod method) { solidMethodRequest_ = {solid, method}; }
    const ImageCapture& capture() const { return capture_; }
    const Swapchain& swapchain() const { return swapchain_; }
    Swapchain& swapchain() { return swapchain_; }
    uint64_t framesShown() const { return framesShown_; }
    // GPU time of the last collected frame's scene drawing and overlay drawing.
    const RenderTimer& renderTimer() const { return renderTimer_; }

private:
    void collect(uint32_t slot);
    bool drawFrame(uint32_t slot);
    void applyKeys();
    void applyRequests();
    void rebuild(const Scene& scene, bool resetCamera);
    void switchSolidMethod(uint32_t solid, SolidMethod method);
    void frameScene();
    void updatePicking(VkExtent2D extent);
    bool simulateThisFrame();
    OverlayView overlayView();
    void recordCapture(VkCommandBuffer cmd, uint32_t slot, const RenderTarget& shown, const CameraView& view);

    const VulkanContext& ctx_;
    Window& window_;
    World* sim_;
    std::unique_ptr<World> ownedSim_;  // after a reset or a scene change
    std::span<FrameObserver* const> observers_;  // --export, --trace
    Swapchain swapchain_;
    FramesInFlight frames_;
    std::unique_ptr<Renderer> renderer_;
    OrbitCamera camera_;
    RenderTimer renderTimer_;
    std::unique_ptr<Overlay> overlay_;
    ViewerControls controls_;
    OverlayProviders providers_;
    std::vector<std::string> sceneFiles_;
    std::string error_;
    std::optional<std::pair<uint32_t, SolidMethod>> solidMethodRequest_;
    std::vector<float> stepMs_, frameMs_;  // recent history, oldest first
    double lastShownSeconds_ = 0.0;
    uint64_t displayFrames_ = 0;  // for slow motion
    bool picking_ = false;
    bool residualTracking_ = false;
    bool timeEveryPass_ = false;  // ViewerOptions::timeEveryPass
    std::array<std::optional<uint64_t>, kFramesInFlight> slotFrames_{};  // the simulation frame each slot holds
    uint32_t slot_ = 0;
    uint64_t framesShown_ = 0;
    bool captureRequested_ = false;
    ImageCapture capture_;
    std::unique_ptr<OffscreenTarget> captureTarget_;  // when the swapchain images cannot be copied
};

}  // namespace vksim
