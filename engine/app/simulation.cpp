#include "app/simulation.h"

#include <fmt/format.h>

#include "sim/model_builder.h"
#include "sim/non_finite_replay.h"
#include "vk/context.h"

namespace vksim {

Simulation::Simulation(const VulkanContext& ctx, const Scene& scene, uint32_t frameSlots)
    : ctx_(ctx), scene_(scene), model_(buildModel(scene)) {
    solver_ = std::make_unique<PbdSolver>(ctx, model_);
    pdSolver_ = std::make_unique<PdSolver>(ctx, model_, solver_->positions(), solver_->velocities());
    // Head-room so that live edits of substeps/iterations (up to 4x) fit.
    const uint32_t runs = 4 * (PbdSolver::passRunsPerFrame(model_, scene_.solver) +
                               PdSolver::passRunsPerFrame(model_, scene_.solver)) +
                          FrameFiniteCheck::kPassRunsPerFrame;
    timer_ = std::make_unique<GpuTimer>(ctx, frameSlots, runs);
    // Step order: the projective dynamics objects, then the PBD ones (and the normals of all).
    pdSolver_->registerPasses(*timer_);
    solver_->registerPasses(*timer_);
    // A relaxation that would make the Jacobi iteration diverge is a scene error: say so now.
    if (!pdSolver_->empty()) {
        try {
            pdSolver_->jacobiParameters(scene_.solver);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(fmt::format("{}: /solver/pd/relaxation: {}", scene_.path, e.what()));
        }
    }
    finiteCheck_ = std::make_unique<FrameFiniteCheck>(ctx, *solver_, frameSlots);
    finiteCheck_->registerPass(*timer_);
}

void Simulation::recordFrame(VkCommandBuffer cmd, uint32_t slot) {
    timer_->beginFrame(cmd, slot);
    pdSolver_->recordFrame(cmd, scene_.solver, *timer_);
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
