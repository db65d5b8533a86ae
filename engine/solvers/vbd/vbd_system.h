#pragma once
// What the VBD solver gathers over, derived once per topology from the tets
// of a VbdModel (docs/physics.md §16): each particle's incident tets and the
// vertex colours.
#include "solvers/vbd/vbd_model.h"

namespace vksim {

// Fills vbd.vertices, incidentTets, vertexOrder and vertexColours from
// vbd.tets:
//  - incidence: each particle's tets as tet * 4 + role, by tet index;
//  - colours: greedy in particle order (solvers/vertex_colouring.h) on the
//    graph joining particles that share a tet.
// Deterministic. Throws std::invalid_argument when a tet names a particle
// outside the range.
void buildVbdSystem(VbdModel& vbd);

}  // namespace vksim
