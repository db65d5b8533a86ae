#pragma once
// Appends a "method": "vbd" solid to the model: its particles (pins hard),
// its surface triangles and object, its tets with their rest shapes and its
// material row (docs/physics.md §16).
#include <cstdint>

#include "scene/scene.h"
#include "solvers/vbd/vbd_model.h"

namespace vksim {

// Throws std::invalid_argument naming the solid for a solid without a
// material, a bad mesh or a degenerate tet.
void appendVbdSolid(SharedModel& model, VbdModel& vbd, const SolidObject& solid, uint32_t index);

}  // namespace vksim
