#pragma once
// The always-on check for NaN and Inf: one timed pass, "finite check", after
// the last pass of every frame scans the particles' positions and velocities
// and the rigid bodies' states (position, rotation xyz, linear and angular
// velocity; a non-finite quaternion has a non-finite xyz once normalised)
// into a result buffer of that frame slot. The host reads it when it collects the slot's
// timings, after the slot's fence has signalled, so the check never stalls a
// frame. It tells which frame went non-finite; non_finite_replay.h then finds
// the pass.
#include <memory>
#include <optional>
#include <vector>

#include <volk.h>

#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;
class ParticleStore;
class RigidSolver;
class StepPlan;
class StepRecorder;

class FrameFiniteCheck {
public:
    FrameFiniteCheck(const VulkanContext& ctx, const ParticleStore& particles, const RigidSolver& bodies,
                     uint32_t frameSlots);
    ~FrameFiniteCheck();

    // Declares "finite check" in the step plan (after the solvers' passes).
    void declarePass(StepPlan& plan);

    // Records the check of frame `frame` for frame slot `slot` (or counts it),
    // after the solver's frame: a barrier for the frame's last writes, the
    // timed scan, and the barrier that makes the result visible to the host.
    // The slot's previous result must have been collected.
    void record(StepRecorder& rec, uint32_t slot, uint64_t frame);
    // Instead of record(): the commands last recorded for `slot` run again,
    // now as frame `frame` (world/frame_commands.h).
    void replay(uint32_t slot, uint64_t frame);

    // Reads the result of the frame last recorded in `slot` (its fence must
    // have signalled). No-op when nothing was recorded since the last collect.
    void collect(uint32_t slot);

    // The frame last collected from `slot`, when its particles or bodies
    // held a NaN or Inf at the end of the frame.
    std::optional<uint64_t> nonFiniteFrame(uint32_t slot) const { return slots_.at(slot).nonFiniteFrame; }

private:
    struct Slot {
        GpuBuffer result;
        uint64_t frame = 0;
        bool pending = false;
        std::optional<uint64_t> nonFiniteFrame;
    };
    // The slot, marked as holding frame `frame` until collected.
    Slot& begin(uint32_t slot, uint64_t frame);

    const ParticleStore& particles_;
    const RigidSolver& bodies_;
    uint32_t particleCount_ = 0;
    std::unique_ptr<ComputeKernel> kernel_;
    std::vector<Slot> slots_;
    uint32_t passId_ = UINT32_MAX;
};

}  // namespace vksim
