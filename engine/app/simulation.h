#pragma once
// A loaded scene running on the GPU: the model built from the scene, the PBD
// solver and the GPU timer that names its passes. Headless and windowed runs
// both drive one of these; each records one simulation frame per call into
// the caller's command buffer.
#include <memory>

#include "scene/scene.h"
#include "sim/pbd_solver.h"
#include "sim/sim_model.h"
#include "vk/gpu_timer.h"

namespace vksim {

class VulkanContext;

class Simulation {
public:
    // frameSlots: frames in flight (one timer query pool each).
    Simulation(const VulkanContext& ctx, const Scene& scene, uint32_t frameSlots);

    // Records one frame of simulation with its timestamps into `cmd` for
    // frame slot `slot`; call collectTimings(slot) after that slot's fence
    // signals next time.
    void recordFrame(VkCommandBuffer cmd, uint32_t slot);
    void collectTimings(uint32_t slot) { timer_->collect(slot); }

    const Scene& scene() const { return scene_; }
    Scene& scene() { return scene_; }  // live edits of solver settings
    const SimModel& model() const { return model_; }
    PbdSolver& solver() { return *solver_; }
    const PbdSolver& solver() const { return *solver_; }
    GpuTimer& timer() { return *timer_; }
    uint64_t framesRecorded() const { return framesRecorded_; }

private:
    Scene scene_;
    SimModel model_;
    std::unique_ptr<PbdSolver> solver_;
    std::unique_ptr<GpuTimer> timer_;
    uint64_t framesRecorded_ = 0;
};

}  // namespace vksim
