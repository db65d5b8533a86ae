#pragma once
// The windowed frame loop, one turn at a time: events, swapchain upkeep
// (resize, minimise, out-of-date), then one frame simulated and drawn into the
// next swapchain image and presented. Kept apart from runWindowed so tests can
// drive the window (resize, iconify) between turns.
#include <array>
#include <memory>
#include <optional>
#include <span>

#include "app/frame_observer.h"
#include "render/frames_in_flight.h"
#include "render/image_capture.h"
#include "render/orbit_camera.h"
#include "render/renderer.h"
#include "render/swapchain.h"

namespace vksim {

class VulkanContext;
class Simulation;
class Window;

struct ViewerOptions {
    VkPresentModeKHR presentMode = VK_PRESENT_MODE_FIFO_KHR;
};

class Viewer {
public:
    static constexpr uint32_t kFramesInFlight = 2;

    // `sim` must have been built with kFramesInFlight frame slots.
    Viewer(const VulkanContext& ctx, Window& window, Simulation& sim, std::span<FrameObserver* const> observers,
           const ViewerOptions& options = {});
    // The GPU may still use what the members own: waits for it first.
    ~Viewer();
    Viewer(const Viewer&) = delete;
    Viewer& operator=(const Viewer&) = delete;

    // One turn of the loop; true when a frame was simulated and shown
    // (false while minimised, or when the swapchain had to be rebuilt first).
    bool tick();
    // The next frame shown is also copied for a screenshot (see capture()).
    void requestCapture() { captureRequested_ = true; }
    // Waits for the GPU and collects every frame still in flight (timings,
    // finite checks, observers); after it the capture's pixels are readable.
    void finish();

    const ImageCapture& capture() const { return capture_; }
    const Swapchain& swapchain() const { return swapchain_; }
    Swapchain& swapchain() { return swapchain_; }
    uint64_t framesShown() const { return framesShown_; }

private:
    void collect(uint32_t slot);
    bool drawFrame(uint32_t slot);
    void recordCapture(VkCommandBuffer cmd, uint32_t slot, const RenderTarget& shown, const CameraView& view);

    const VulkanContext& ctx_;
    Window& window_;
    Simulation& sim_;
    Swapchain swapchain_;
    FramesInFlight frames_;
    Renderer renderer_;
    OrbitCamera camera_;
    std::span<FrameObserver* const> observers_;  // --export, --trace
    std::array<std::optional<uint64_t>, kFramesInFlight> slotFrames_{};  // the simulation frame each slot holds
    uint32_t slot_ = 0;
    uint64_t framesShown_ = 0;
    bool captureRequested_ = false;
    ImageCapture capture_;
    std::unique_ptr<class OffscreenTarget> captureTarget_;  // when the swapchain images cannot be copied
};

}  // namespace vksim
