#pragma once
#include "run/run_options.h"
#include "scene/scene.h"

namespace vksim {

// Opens a window and runs `scene` live until the window closes or
// options.frames frames have been shown. Returns an exit status.
int runWindowed(const RunOptions& options, const Scene& scene);

}  // namespace vksim
