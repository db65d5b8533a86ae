#pragma once
// Everything the GPU uploads, built once per topology from a Scene
// (model_builder.h): the part every solver shares (model/shared_model.h:
// particles, objects, colliders, triangles) and each solver's own sub-model.
// Each solver's particles are one contiguous range, in the order of the
// members below; the rigid bodies have none.
#include <cstdint>

#include "model/shared_model.h"
#include "solvers/pbd/pbd_model.h"
#include "solvers/pd/pd_model.h"
#include "solvers/rigid/rigid_model.h"
#include "solvers/springs/spring_model.h"
#include "solvers/vbd/vbd_model.h"

namespace vksim {

struct SimModel : SharedModel {
    // Cloths with "method": "pbd" (the default), first.
    PbdModel pbd;
    // Objects simulated with projective dynamics ("method": "pd" cloths, tetrahedral solids).
    PdModel pd;
    // Objects simulated as mass-spring systems ("method": "springs").
    MsModel springs;
    // Tetrahedral solids simulated by vertex block descent ("method": "vbd"), last.
    VbdModel vbd;
    // The rigid bodies (scene "bodies").
    RigidModel rigid;
};

}  // namespace vksim
