#include "diagnostics/frame_finite_check.h"

#include <stdexcept>

#include <fmt/format.h>

#include "shaders/shared/finite_check_types.h"
#include "shaders/rigid/rigid_types.h"
#include "solvers/rigid/rigid_solver.h"
#include "state/particle_store.h"
#include "step/finite_check_result.h"
#include "step/step_recorder.h"
#include "vk/barriers.h"

namespace vksim {

namespace {

// The checks' numbers in a frame's result: the lower number owns it.
constexpr uint32_t kParticlesCheck = 0;
constexpr uint32_t kBodiesCheck = 1;
// A body state is six vec4s (position, rotation, linear and angular velocity, and both velocities at the
// substep's start), each checked as an element.
constexpr uint32_t kVec4sPerBody = sizeof(gpu::RigidBodyState) / sizeof(glm::vec4);

}  // namespace

FrameFiniteCheck::FrameFiniteCheck(const VulkanContext& ctx, const ParticleStore& particles,
                                   const RigidSolver& bodies, uint32_t frameSlots)
    : particles_(particles), bodies_(bodies), particleCount_(particles.particleCount()), slots_(frameSlots) {
    kernel_ = std::make_unique<ComputeKernel>(ctx, "debug/check_finite.comp", sizeof(gpu::FiniteCheckPush));
    for (uint32_t i = 0; i < frameSlots; ++i) {
        Slot& slot = slots_[i];
        slot.result = makeFiniteCheckResultBuffer(ctx, fmt::format("finite check result, frame slot {}", i));
    }
}

FrameFiniteCheck::~FrameFiniteCheck() = default;

void FrameFiniteCheck::declarePass(StepPlan& plan) {
    passId_ = plan.declare("finite check", StageKind::FiniteCheck, "world");
}

void FrameFiniteCheck::record(StepRecorder& rec, uint32_t slotIndex, uint64_t frame) {
    if (passId_ == UINT32_MAX) throw std::logic_error("FrameFiniteCheck::declarePass must be called before record");
    if (rec.counting()) {
        rec.timed(passId_, [](VkCommandBuffer) {});
        return;
    }
    VkCommandBuffer cmd = rec.cmd();
    Slot& slot = begin(slotIndex, frame);

    computeToComputeBarrier(cmd);  // the frame's last writes of positions, velocities and body states
    rec.timed(passId_, [&](VkCommandBuffer timedCmd) {
        // What a scene does not have is not checked (it has no buffer to read).
        if (particleCount_ > 0)
            kernel_->dispatch(timedCmd, {&particles_.positions(), &particles_.velocities(), &slot.result},
                              2 * particleCount_, gpu::FiniteCheckPush{particleCount_, 2, kParticlesCheck, 0});
        if (!bodies_.empty()) {
            // One buffer: binding 1 repeats binding 0 (finite_check_types.h).
            const uint32_t elements = kVec4sPerBody * bodies_.bodyCount();
            kernel_->dispatch(timedCmd, {&bodies_.states(), &bodies_.states(), &slot.result}, elements,
                              gpu::FiniteCheckPush{elements, 1, kBodiesCheck, 0});
        }
    });
    computeToHostBarrier(cmd);  // read by collect() once the slot's fence has signalled
}

void FrameFiniteCheck::replay(uint32_t slotIndex, uint64_t frame) { begin(slotIndex, frame); }

FrameFiniteCheck::Slot& FrameFiniteCheck::begin(uint32_t slotIndex, uint64_t frame) {
    Slot& slot = slots_.at(slotIndex);
    // The host clears the result when it collects it; recording over an
    // uncollected result would lose a non-finite frame.
    if (slot.pending)
        throw std::logic_error(fmt::format("finite check: frame slot {} recorded again before it was collected",
                                           slotIndex));
    slot.frame = frame;
    slot.pending = true;
    return slot;
}

void FrameFiniteCheck::collect(uint32_t slotIndex) {
    Slot& slot = slots_.at(slotIndex);
    if (!slot.pending) return;
    slot.pending = false;
    const gpu::FiniteCheckResult result = takeFiniteCheckResult(slot.result);
    slot.nonFiniteFrame = result.firstBadCheck != gpu::kNoFiniteCheck ? std::optional(slot.frame) : std::nullopt;
}

}  // namespace vksim
