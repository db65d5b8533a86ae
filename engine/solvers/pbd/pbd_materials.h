#pragma once
// Live edits of PBD materials (World::setFamilyMaterial): the stiffness or
// compliance of one constraint family of one cloth, checked, then written
// to the scene and to the model's material row, so that the edited model is
// the one a new World of the edited scene would build.
#include <cstdint>

#include "scene/scene.h"
#include "solvers/pbd/pbd_model.h"

namespace vksim {

// Family `family` of cloth `cloth` (index into scene.cloths) takes `params`.
// `enabled` cannot change (the constraints exist or not). Throws
// std::invalid_argument, changing nothing, for a projective dynamics cloth
// (its parameters are PD weights), a bad index, family or value.
void setPbdFamilyMaterial(Scene& scene, PbdModel& pbd, uint32_t cloth, ConstraintFamily family,
                          const ConstraintParams& params);

}  // namespace vksim
