#pragma once
// A few lines describing a built model, for the CLI and logs: sizes, and how
// each constraint family is split into colours and its overflow group (one
// GPU dispatch per colour and one for a non-empty overflow group, so these
// are the serial steps per iteration).
#include <string>

#include "solvers/model_builder.h"
#include "solvers/sim_model.h"

namespace vksim {

std::string describeModel(const SimModel& model, const ModelDiagnostics& diagnostics = {});

}  // namespace vksim
