#pragma once
// Shared set-up of the GPU tests: one Vulkan context per test process with
// the validation layer (and synchronization validation) on, a fixture that
// fails any test during which the layer reported something, and a runner that
// steps a SimModel frame by frame and reads the state back.
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scene/scene.h"
#include "solvers/sim_model.h"
#include "solvers/stepper.h"
#include "vk/context.h"
#include "vk/gpu_timer.h"

namespace vksim::test {

// The device from VKSIM_TEST_DEVICE (index or name substring), else the best.
VulkanContext& sharedContext();

class GpuTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;
    VulkanContext& ctx() { return sharedContext(); }

private:
    uint32_t messagesBefore_ = 0;
};

// Steps a model on the GPU with a Stepper (every solver, as World does,
// without its tracking, picking and finite check), one frame per submission
// (waits after each). The timer fits `headroom` times the runs of a frame of
// `sizedFor` (default: 4x those of `settings`).
class GpuRun {
public:
    GpuRun(VulkanContext& ctx, const SimModel& model, const SolverSettings& settings);
    GpuRun(VulkanContext& ctx, const SimModel& model, const SolverSettings& settings,
           const SolverSettings& sizedFor, uint32_t headroom = 1);
    void frames(uint32_t count);
    // Back to the model's initial state.
    void reset(const SimModel& model) { stepper_.reset(model); }
    std::vector<glm::vec4> positions() const { return stepper_.particles().readPositions(); }
    std::vector<glm::vec4> velocities() const { return stepper_.particles().readVelocities(); }
    SolverSettings& settings() { return settings_; }
    GpuTimer& timer() { return timer_; }
    Stepper& stepper() { return stepper_; }

private:
    VulkanContext& ctx_;
    SolverSettings settings_;
    Stepper stepper_;
    GpuTimer timer_;
};

// Scene with one cloth and no colliders, for tests that set the rest up.
Scene clothScene(glm::uvec2 resolution, glm::vec2 size, float height);

// A 2 m cloth of side x side particles pinned by two corners as
// attachments (so every PBD family is there), PBD stretch, XPBD bending,
// swinging down onto a sphere: the cluster path's and the shared colours'
// tests against the CPU reference.
Scene swingingCloth(uint32_t side);

// The largest distance between a GPU position and the reference's [m].
double largestDistance(const std::vector<glm::vec4>& gpu, std::span<const glm::dvec3> cpu);

// A path in the source tree (scenes/, tests/...).
std::string sourcePath(const std::string& relative);

}  // namespace vksim::test
