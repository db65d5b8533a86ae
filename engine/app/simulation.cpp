#include "app/simulation.h"

#include "sim/model_builder.h"
#include "sim/non_finite_replay.h"
#include "vk/context.h"

namespace vksim {

Simulation::Simulation(const VulkanContext& ctx, const Scene& scene, uint32_t frameSlots)
    : ctx_(ctx), scene_(scene), model_(buildModel(scene)) {
    solver_ = std::make_unique<PbdSolver>(ctx, model_);
    // Head-room so that live edits of substeps/iterations (up to 4x) fit.
    const uint32_t runs =
        4 * PbdSolver::passRunsPerFrame(model_, scene_.solver) + FrameFiniteCheck::kPassRunsPerFrame;
    timer_ = std::make_unique<GpuTimer>(ctx, frameSlots, runs);
    solver_->registerPasses(*timer_);
    finiteCheck_ = std::make_unique<FrameFiniteCheck>(ctx, *solver_, frameSlots);
    finiteCheck_->registerPass(*timer_);
}

void Simulation::recordFrame(VkCommandBuffer cmd, uint32_t slot) {
    timer_->beginFrame(cmd, slot);
    solver_->recordFrame(cmd, scene_.solver, *timer_);
    finiteCheck_->record(cmd, slot, framesRecorded_, *timer_);
    timer_->endFrame(cmd);
    ++framesRecorded_;
}

void Simulation::collectTimings(uint32_t slot) {
    timer_->collect(slot);
    finiteCheck_->collect(slot);
}

void Simulation::throwIfNonFinite(uint32_t slot) const {
    const std::optional<uint64_t> frame = nonFiniteFrame(slot);
    if (!frame) return;
    const std::optional<NonFiniteSite> site = findFirstNonFinitePass(ctx_, model_, scene_.solver, *frame);
    throw NonFiniteError(site ? describeNonFinite(*site) : describeUnlocatedNonFinite(*frame));
}

}  // namespace vksim
