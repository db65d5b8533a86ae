#pragma once
// GPU time of the window's drawing, per frame: the scene (renderer) and the
// overlay, from three timestamps per frame slot, copied by the frame's
// commands into the slot's host-visible buffer and read from there after the
// slot's fence: never a stall, nor a wait for another frame (as the GPU
// timer, vk/gpu_timer.h, says why). What the overlay shows about itself, and how its cost is
// measured (README "Viewer").
#include <cstdint>
#include <vector>

#include <volk.h>

#include "vk/buffer.h"

namespace vksim {

class VulkanContext;

class RenderTimer {
public:
    enum Mark : uint32_t { kSceneBegin = 0, kSceneEnd = 1, kOverlayEnd = 2, kMarks = 3 };

    RenderTimer(const VulkanContext& ctx, uint32_t frameSlots);
    ~RenderTimer();
    RenderTimer(const RenderTimer&) = delete;
    RenderTimer& operator=(const RenderTimer&) = delete;

    // Resets the slot's queries; then mark() each point in order (the last,
    // kOverlayEnd, also copies the slot's results for collect()).
    void begin(VkCommandBuffer cmd, uint32_t slot);
    void mark(VkCommandBuffer cmd, uint32_t slot, Mark mark);
    // After the slot's fence: the frame's scene and overlay times.
    void collect(uint32_t slot);

    float lastSceneMs() const { return sceneMs_; }
    float lastOverlayMs() const { return overlayMs_; }
    // Medians over every frame collected, and how many (0: none yet).
    float medianSceneMs() const;
    float medianOverlayMs() const;
    size_t framesCollected() const { return sceneSamples_.size(); }

private:
    const VulkanContext& ctx_;
    double nsPerTick_ = 1.0;
    std::vector<VkQueryPool> pools_;
    std::vector<GpuBuffer> results_;  // per slot: the kMarks timestamps, copied by the frame (uint64_t each)
    std::vector<bool> pending_;
    float sceneMs_ = 0.0f;
    float overlayMs_ = 0.0f;
    std::vector<float> sceneSamples_, overlaySamples_;
};

}  // namespace vksim
