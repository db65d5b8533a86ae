#include "sim/frame_finite_check.h"

#include <stdexcept>

#include <fmt/format.h>

#include "shared/finite_check_types.h"
#include "sim/finite_check_result.h"
#include "sim/pbd_solver.h"
#include "vk/barriers.h"
#include "vk/gpu_timer.h"

namespace vksim {

FrameFiniteCheck::FrameFiniteCheck(const VulkanContext& ctx, const PbdSolver& solver, uint32_t frameSlots)
    : particleCount_(solver.particleCount()), slots_(frameSlots) {
    kernel_ = std::make_unique<ComputeKernel>(ctx, "debug/check_finite.comp", sizeof(gpu::FiniteCheckPush),
                                              frameSlots);
    for (uint32_t i = 0; i < frameSlots; ++i) {
        Slot& slot = slots_[i];
        slot.result = makeFiniteCheckResultBuffer(ctx, fmt::format("finite check result, frame slot {}", i));
        slot.set = kernel_->bind({&solver.positions(), &solver.velocities(), &slot.result},
                                 fmt::format("finite check, frame slot {}", i));
    }
}

FrameFiniteCheck::~FrameFiniteCheck() = default;

void FrameFiniteCheck::registerPass(GpuTimer& timer) { passId_ = timer.registerPass("finite check"); }

void FrameFiniteCheck::record(VkCommandBuffer cmd, uint32_t slotIndex, uint64_t frame, GpuTimer& timer) {
    if (passId_ == UINT32_MAX) throw std::logic_error("FrameFiniteCheck::registerPass must be called before record");
    Slot& slot = slots_.at(slotIndex);
    // The host clears the result when it collects it; recording over an
    // uncollected result would lose a non-finite frame.
    if (slot.pending)
        throw std::logic_error(fmt::format("finite check: frame slot {} recorded again before it was collected",
                                           slotIndex));
    slot.frame = frame;
    slot.pending = true;

    computeToComputeBarrier(cmd);  // the frame's last writes of positions and velocities
    timer.beginPass(cmd, passId_);
    dispatch(cmd, *kernel_, slot.set, 2 * particleCount_, gpu::FiniteCheckPush{particleCount_, 2, 0, 0});
    timer.endPass(cmd);
    computeToHostBarrier(cmd);  // read by collect() once the slot's fence has signalled
}

void FrameFiniteCheck::collect(uint32_t slotIndex) {
    Slot& slot = slots_.at(slotIndex);
    if (!slot.pending) return;
    slot.pending = false;
    const gpu::FiniteCheckResult result = takeFiniteCheckResult(slot.result);
    slot.nonFiniteFrame = result.firstBadCheck != gpu::kNoFiniteCheck ? std::optional(slot.frame) : std::nullopt;
}

}  // namespace vksim
