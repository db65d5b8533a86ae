#include "app/headless_screenshot.h"

#include "solvers/rigid/rigid_solver.h"
#include "vk/barriers.h"
#include "world/world.h"

namespace vksim {

HeadlessScreenshot::HeadlessScreenshot(const VulkanContext& ctx, const World& sim, VkExtent2D extent,
                                       uint32_t frameSlots, uint64_t frame, std::string path,
                                       const DisplaySettings& display)
    : sim_(sim),
      target_(ctx, extent),
      renderer_(ctx, sim.model(), sim.particles(), sim.solver<RigidSolver>().states(), sim.colliderRows(),
                sim.contacts(), sim.wind(),
                OffscreenTarget::kColorFormat, Swapchain::kDepthFormat, frameSlots),
      capture_(ctx),
      frame_(frame),
      path_(std::move(path)),
      display_(display) {}

void HeadlessScreenshot::frameRecorded(VkCommandBuffer cmd, uint32_t slot, uint64_t frame) {
    if (frame != frame_) return;
    renderer_.recordCompute(cmd, display_);
    computeToVertexInputBarrier(cmd);
    const OrbitCamera camera(sim_.scene().camera);
    renderer_.recordFrame(cmd, slot, target_.target(), camera.cameraView(target_.target().extent), display_);
    capture_.record(cmd, target_.target());
}

void HeadlessScreenshot::frameCollected(uint32_t, uint64_t frame) {
    if (frame == frame_) capture_.writePng(path_);
}

}  // namespace vksim
