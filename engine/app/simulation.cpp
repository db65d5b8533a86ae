#include "app/simulation.h"

#include "sim/model_builder.h"
#include "vk/context.h"

namespace vksim {

Simulation::Simulation(const VulkanContext& ctx, const Scene& scene, uint32_t frameSlots)
    : scene_(scene), model_(buildModel(scene)) {
    solver_ = std::make_unique<PbdSolver>(ctx, model_);
    // Head-room so that live edits of substeps/iterations (up to 4x) fit.
    const uint32_t runs = 4 * PbdSolver::passRunsPerFrame(model_, scene_.solver);
    timer_ = std::make_unique<GpuTimer>(ctx, frameSlots, runs);
    solver_->registerPasses(*timer_);
}

void Simulation::recordFrame(VkCommandBuffer cmd, uint32_t slot) {
    timer_->beginFrame(cmd, slot);
    solver_->recordFrame(cmd, scene_.solver, *timer_);
    timer_->endFrame(cmd);
    ++framesRecorded_;
}

}  // namespace vksim
