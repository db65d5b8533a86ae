#pragma once
// The sheet the tearing tests pull apart (tests/gpu/tearing*_test.cpp,
// wind_test.cpp): 6 x 10 particles, 0.5 m x 1 m, soft stretch (k = 0.02) so
// that it stretches nearly as its velocities say, no gravity, no damping,
// tearing past a strain of kTornSheetStrain.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpu_harness.h"
#include "scene/scene.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/sim_model.h"

namespace vksim::test {

constexpr float kTornSheetStrain = 0.3f;   // the threshold
constexpr float kTornSheetPullRate = 3.0f;  // [1/s] of pullTornSheet's velocity profile
constexpr uint32_t kTornSheetVertices = 60;

// The sheet on `path`, reserving `capacity` spare particles for splitting
// (0: torn triangles are dropped).
Scene tornSheet(PbdPath path, float capacity = 0.0f);

// Starts every particle at v_z = kTornSheetPullRate z (z from the sheet's
// middle): its rows part at a strain rate of about 3/s, 0.05 a frame.
void pullTornSheet(GpuRun& run, const SimModel& model);

// How many distance constraints have torn (a torn one's rest length is
// negative).
inline uint32_t brokenCount(const std::vector<gpu::DistanceConstraint>& d) {
    return static_cast<uint32_t>(std::count_if(d.begin(), d.end(), [](const auto& c) { return c.restLength < 0; }));
}

}  // namespace vksim::test
