#pragma once
// Which path a rigid frame takes (rigid_dispatch_path.h). The thresholds
// come from the measurements in docs/benchmarks.md ("rigid bodies", per
// device).
#include <cstdint>

#include "scene/scene.h"

namespace vksim {

// The most bodies "auto" steps in one workgroup. A CPU device pays a large
// fixed cost a dispatch but runs a workgroup on one core, so one workgroup
// wins only while the bodies are few enough for one core; a GPU pays
// little a dispatch and runs the per-substep path's bodies and pairs side
// by side.
inline constexpr uint32_t kRigidOneWorkgroupBodiesCpu = 4;
inline constexpr uint32_t kRigidOneWorkgroupBodiesGpu = 8;

// The path of a frame of `bodyCount` bodies on a CPU device or a GPU:
// OneWorkgroup or PerSubstep ("auto" resolved). A single body takes one
// workgroup under every setting: it has no pairs to run side by side.
RigidPath chooseRigidPath(RigidPath requested, uint32_t bodyCount, bool cpuDevice);

}  // namespace vksim
