#include "app/viewer.h"

#include "app/simulation.h"
#include "render/image_barrier.h"
#include "render/offscreen_target.h"
#include "render/window.h"
#include "vk/barriers.h"
#include "vk/context.h"
#include "vk/vk_check.h"

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
    VK_CHECK(vkQueueSubmit2(ctx.queue(), 1, &submit, frame.done));
}

}  // namespace

Viewer::Viewer(const VulkanContext& ctx, Window& window, Simulation& sim, std::span<FrameObserver* const> observers,
               const ViewerOptions& options)
    : ctx_(ctx),
      window_(window),
      sim_(sim),
      swapchain_(ctx, window.framebufferExtent(), options.presentMode),
      frames_(ctx, kFramesInFlight),
      renderer_(ctx, sim.model(), sim.solver(), swapchain_.colorFormat(), swapchain_.depthFormat(), kFramesInFlight),
      camera_(sim.scene().camera),
      observers_(observers),
      capture_(ctx) {}

Viewer::~Viewer() { vkDeviceWaitIdle(ctx_.device()); }

// The slot's previous frame has finished: its timestamps and its finite
// check are ready. A non-finite frame ends the run with the pass that
// produced it (found by replay); otherwise the observers get the frame.
void Viewer::collect(uint32_t slot) {
    sim_.collectTimings(slot);
    sim_.throwIfNonFinite(slot);
    if (!slotFrames_[slot]) return;
    const uint64_t collected = *slotFrames_[slot];
    slotFrames_[slot].reset();
    for (FrameObserver* observer : observers_) observer->frameCollected(slot, collected);
}

bool Viewer::tick() {
    window_.pollEvents();
    if (window_.minimized()) {
        window_.waitEvents();  // nothing to draw into until the window comes back
        return false;
    }
    if (window_.takeResized() || !swapchain_.usable()) swapchain_.recreate(window_.framebufferExtent());
    if (!swapchain_.usable()) return false;
    if (!drawFrame(slot_)) return false;
    slot_ = (slot_ + 1) % kFramesInFlight;
    ++framesShown_;
    return true;
}

// Simulates and draws one frame in frame slot `slot`. False when nothing was
// shown (the swapchain turned out to be out of date).
bool Viewer::drawFrame(uint32_t slot) {
    const FrameSlot& frame = frames_[slot];
    VK_CHECK(vkWaitForFences(ctx_.device(), 1, &frame.done, VK_TRUE, UINT64_MAX));
    collect(slot);
    const std::optional<uint32_t> image = swapchain_.acquire(frame.imageAcquired);
    if (!image) return false;  // rebuilt before the next try; the fence stays signalled
    VK_CHECK(vkResetFences(ctx_.device(), 1, &frame.done));

    const RenderTarget target = swapchain_.target(*image);
    camera_.apply(window_.takeCameraInput(), float(target.extent.height));
    const CameraView view = camera_.cameraView(target.extent);

    VK_CHECK(vkResetCommandBuffer(frame.commands, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(frame.commands, &begin));
    const uint64_t frameIndex = sim_.framesRecorded();
    sim_.recordFrame(frame.commands, slot);
    for (FrameObserver* observer : observers_) observer->frameRecorded(frame.commands, slot, frameIndex);
    slotFrames_[slot] = frameIndex;
    computeToVertexInputBarrier(frame.commands);
    renderer_.recordFrame(frame.commands, slot, target, view);
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
    renderer_.recordFrame(cmd, slot, captureTarget_->target(), view);
    capture_.record(cmd, captureTarget_->target());
}

void Viewer::finish() {
    VK_CHECK(vkDeviceWaitIdle(ctx_.device()));
    // `slot_` is the next to be used, so it holds the oldest frame: collect it first.
    for (uint32_t i = 0; i < kFramesInFlight; ++i) collect((slot_ + i) % kFramesInFlight);
}

}  // namespace vksim
