#pragma once
// Which Jacobi path a PD frame takes (pd_jacobi_dispatch_path.h). The
// thresholds come from the measurements in docs/benchmarks.md ("projective
// dynamics and mass-spring cloth", per device).
#include <cstdint>

#include "scene/scene.h"

namespace vksim {

// The most rows (PD particles) "auto" runs in one workgroup. A workgroup
// runs on one core or one multiprocessor, so its cost grows with the rows,
// while a dispatch per iteration costs a fixed share whatever the size:
// below this, one workgroup was faster on both kinds of device.
inline constexpr uint32_t kPdOneWorkgroupRows = 256;

// The path of a frame with `settings` on a system of `rows` rows: the
// requested one, or for "auto" one workgroup up to kPdOneWorkgroupRows rows
// and a dispatch per iteration above ("auto" never takes the tiled path).
// More Jacobi iterations than the workgroup path holds weights for (more
// than a scene may ask) take a dispatch per iteration whatever was asked.
PdJacobiPath choosePdJacobiPath(const PdSettings& settings, uint32_t rows);

}  // namespace vksim
