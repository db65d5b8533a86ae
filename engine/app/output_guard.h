#pragma once
// An output named like one of the run's inputs (`--timings scene.json`, a
// trace onto a mesh) would replace the input with the output. Refused before
// the run starts, since the files vksim writes replace their target whole.
#include "run/run_options.h"
#include "scene/scene.h"

namespace vksim {

// Throws WriteError ("cannot write PATH: it is the run's input FILE") when
// --trace, --timings, --screenshot, --poses or --save-state names the scene file or a mesh it loads
// (the same file, by any path or link).
void refuseOutputsOverInputs(const RunOptions& options, const Scene& scene);

}  // namespace vksim
