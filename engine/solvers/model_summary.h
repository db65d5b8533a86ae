#pragma once
// A few lines describing a built model, for the CLI and logs: sizes, and how
// each constraint family is split into colours and its overflow group (one
// GPU dispatch per colour and one for a non-empty overflow group, so these
// are the serial steps per iteration).
#include <string>
#include <vector>

#include "solvers/model_builder.h"
#include "solvers/sim_model.h"

namespace vksim {

std::string describeModel(const SimModel& model, const ModelDiagnostics& diagnostics = {});

// What building the model left out or found amiss, a sentence each: the
// summary's "warning:" lines, and the Python module's UserWarnings.
std::vector<std::string> modelWarnings(const ModelDiagnostics& diagnostics);

}  // namespace vksim
