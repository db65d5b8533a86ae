#pragma once
#include "run/run_options.h"
#include "scene/scene.h"

namespace vksim {

// Runs `scene` for options.frames frames with no window, then reports
// timings (table on stdout, --timings file) and the state hash. Returns an
// exit status.
int runHeadless(const RunOptions& options, const Scene& scene);

}  // namespace vksim
