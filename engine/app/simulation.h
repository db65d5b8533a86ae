#pragma once
// A loaded scene running on the GPU: the model built from the scene, the PBD
// solver, the GPU timer that names its passes and the end-of-frame check for
// NaN and Inf. Headless and windowed runs both drive one of these; each
// records one simulation frame per call into the caller's command buffer.
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>

#include "scene/scene.h"
#include "sim/frame_finite_check.h"
#include "sim/pbd_solver.h"
#include "sim/pd_solver.h"
#include "sim/sim_model.h"
#include "vk/gpu_timer.h"

namespace vksim {

class VulkanContext;

// The simulation went NaN or Inf. what() is the one-line report (frame, pass,
// substep, iteration, particle), without the "vksim: " prefix.
struct NonFiniteError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Simulation {
public:
    // frameSlots: frames in flight (one timer query pool each).
    Simulation(const VulkanContext& ctx, const Scene& scene, uint32_t frameSlots);

    // Records one frame of simulation with its timestamps and its finite
    // check into `cmd` for frame slot `slot`; call collectTimings(slot) after
    // that slot's fence signals, before recording into the slot again.
    void recordFrame(VkCommandBuffer cmd, uint32_t slot);

    // Reads what the GPU reported about the frame last recorded in `slot`:
    // its pass timings and its finite check. No-op for a slot not in use.
    void collectTimings(uint32_t slot);

    // The frame last collected from `slot` (0-based), when its positions or
    // velocities held a NaN or Inf at the end of the frame.
    std::optional<uint64_t> nonFiniteFrame(uint32_t slot) const { return finiteCheck_->nonFiniteFrame(slot); }

    // For frame loops, right after collectTimings(slot): when that frame went
    // non-finite, finds the pass by replaying from the initial state (waits
    // for the GPU; the replay uses the current solver settings and repeats no
    // other live edit) and throws NonFiniteError with the one-line report.
    void throwIfNonFinite(uint32_t slot) const;

    const Scene& scene() const { return scene_; }
    Scene& scene() { return scene_; }  // live edits of solver settings
    const SimModel& model() const { return model_; }
    PbdSolver& solver() { return *solver_; }
    const PbdSolver& solver() const { return *solver_; }
    // The projective dynamics objects' solver (empty() when there are none);
    // it steps its particles in solver()'s particle buffers.
    PdSolver& pdSolver() { return *pdSolver_; }
    GpuTimer& timer() { return *timer_; }
    uint64_t framesRecorded() const { return framesRecorded_; }

private:
    const VulkanContext& ctx_;
    Scene scene_;
    SimModel model_;  // the initial state, for replays
    std::unique_ptr<PbdSolver> solver_;
    std::unique_ptr<PdSolver> pdSolver_;
    std::unique_ptr<GpuTimer> timer_;
    std::unique_ptr<FrameFiniteCheck> finiteCheck_;
    uint64_t framesRecorded_ = 0;
};

}  // namespace vksim
