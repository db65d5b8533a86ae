#pragma once
// Scene -> MsModel (spring_model.h; docs/physics.md §9): the cloths with
// "method": "springs". Rest lengths, angles and Bergou's matrix come from the
// positions as uploaded (float), widened to double, like the other solvers'
// rest shapes (object_builder.h); spring_builder.h builds the springs and
// hinges, and buildSpringSystem (spring_system.h) the solver's system once
// every cloth is in.
#include <cstdint>

#include "model/object_builder.h"
#include "model/shared_model.h"
#include "scene/scene.h"
#include "solvers/springs/spring_model.h"

namespace vksim {

// Cloth `index` of the scene: its particles and triangles into `model`, its
// springs into `springs`. pinsAsAttachments is an error here (pinned
// vertices are fixed).
void appendSpringCloth(SharedModel& model, MsModel& springs, const ClothObject& cloth, uint32_t index,
                       ModelDiagnostics& diagnostics);

}  // namespace vksim
