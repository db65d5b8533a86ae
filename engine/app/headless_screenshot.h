#pragma once
// --headless --screenshot: after the last frame's simulation, the scene is
// drawn by the windowed renderer into an offscreen target of the window's
// size, from the scene's camera, copied to the host and written as PNG once
// the frame has finished. Same renderer, same commands as the window.
#include <memory>
#include <string>

#include "render/image_capture.h"
#include "render/offscreen_target.h"
#include "render/renderer.h"
#include "render/swapchain.h"
#include "run/frame_observer.h"

namespace vksim {

class VulkanContext;
class World;

class HeadlessScreenshot : public FrameObserver {
public:
    HeadlessScreenshot(const VulkanContext& ctx, const World& sim, VkExtent2D extent, uint32_t frameSlots,
                       uint64_t frame, std::string path, const DisplaySettings& display);

    void frameRecorded(VkCommandBuffer cmd, uint32_t slot, uint64_t frame) override;
    void frameCollected(uint32_t slot, uint64_t frame) override;

private:
    const World& sim_;
    OffscreenTarget target_;
    Renderer renderer_;
    ImageCapture capture_;
    uint64_t frame_;
    std::string path_;
    DisplaySettings display_;
};

}  // namespace vksim
