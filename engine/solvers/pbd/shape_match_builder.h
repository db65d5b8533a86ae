#pragma once
// The shape-matching group of a PBD object (docs/physics.md §13; Müller et
// al. 2005): its particles' rest offsets from their rest centre of mass,
// their masses and, for the linear mode, Aqq^-1 = (sum m_i r_i r_i^T)^-1.
#include <cstdint>
#include <span>

#include "model/shared_model.h"
#include "scene/scene.h"
#include "solvers/pbd/pbd_model.h"

namespace vksim {

// Appends to `pbd` the group of particles [first, first + masses.size()) of `model`,
// their current positions being the rest shape and `masses` their masses
// (pinned ones included). Throws std::invalid_argument, naming the key, when
// the rest points determine no rotation (they lie on a line) or, for the
// linear mode, no linear map (they lie in a plane).
void appendShapeMatchGroup(const SharedModel& model, PbdModel& pbd, const ShapeMatchParams& params, uint32_t first,
                           std::span<const double> masses);

}  // namespace vksim
