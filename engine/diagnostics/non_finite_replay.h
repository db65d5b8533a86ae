#pragma once
// Finding the pass where a simulation went non-finite. The step is
// deterministic, so once the end-of-frame check (frame_finite_check.h) has
// flagged a frame, a replay from the initial model with a FiniteProbe after
// every pass finds the first pass, substep and iteration whose output held a
// NaN or Inf, and the particle or rigid body. One frame per submission, read
// after each.
#include <cstdint>
#include <optional>
#include <string>

#include "scene/scene.h"
#include "solvers/sim_model.h"
#include "state/saved_state.h"
#include "step/finite_probe.h"

namespace vksim {

class VulkanContext;

// Replays frames 0..lastFrame of `model` with `settings` on a solver of its
// own (PBD on its per-colour path, which computes the same state with a pass
// to blame per stage, colour and iteration) and returns the first
// non-finite value a pass wrote, stopping at the frame it appears in;
// nullopt when frames 0..lastFrame stay finite (the run being replayed had
// live edits, which the replay does not repeat). Waits for the GPU after
// every frame: a diagnostic, not for the frame loop.
// With `start` (a state the world loaded, World::loadState), the replay
// starts from it, at its frame.
std::optional<NonFiniteSite> findFirstNonFinitePass(const VulkanContext& ctx, const SimModel& model,
                                                    const SolverSettings& settings, uint64_t lastFrame,
                                                    const SavedState* start = nullptr);

// One line, without the "vksim: " prefix: 'simulation became non-finite in
// frame 12, substep 3, pass "stretch colour 2" (iteration 5): particle 417
// predicted position = (nan, 1.2, 0.5) (the first of 36 non-finite values)';
// a body is named by index and name: '... pass "rigid: step": body 0 "box"
// angular velocity = (...)'.
std::string describeNonFinite(const NonFiniteSite& site);

// When the replay did not reproduce what the end-of-frame check saw.
std::string describeUnlocatedNonFinite(uint64_t frame);

}  // namespace vksim
