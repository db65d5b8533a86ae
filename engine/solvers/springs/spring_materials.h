#pragma once
// The material values of a mass-spring cloth (docs/physics.md §9): the
// stiffness of each spring family, which bending representation is active,
// the locking remedies and the drag. They live in the element arrays
// (MsSpring, MsHinge, MsQuadraticEntry, MsParticle); the topology does not
// depend on them, so a live edit rewrites values only and the Newton
// matrix's pattern and the colours stay.
#include <cstdint>
#include <string_view>

#include "scene/scene.h"
#include "solvers/springs/spring_model.h"

namespace vksim {

// Throws std::invalid_argument naming `owner` for a negative or non-finite
// stiffness or drag, compressionScale outside [0, 1], slack outside [0, 1),
// shearDiagonals above 2, an implicit integrator of the object's own.
void validateSpringParams(const SpringClothParams& params, std::string_view owner);

// The params as an object of this kind is built with: a mesh cloth (not a
// grid) always has topology Mesh, and a Mesh topology has no shear springs
// (shearDiagonals 0). SpringObject::params holds this form.
SpringClothParams effectiveSpringParams(SpringClothParams params, bool grid);

// Writes the values of `params` into object `objectIndex`'s elements (and
// its particles' drag once the system is built): stretch, shear and bend
// springs get stretch, shear and (bending Springs) bendingStiffness, or 0;
// hinges bendingStiffness when bending is Dihedral, else 0; quadratic
// entries bendingStiffness Q when Quadratic, else 0, the diagonal as minus
// the sum of its row's float off-diagonals so rows sum to zero. The builder
// calls it too, so an edit equals a fresh build bit for bit. No checks.
void applySpringParams(MsModel& ms, uint32_t objectIndex, const SpringClothParams& params);

// The live edit: validates, normalises (effectiveSpringParams) and applies.
// Throws std::invalid_argument when the params would change the topology
// (topology, shearDiagonals): that needs a new model.
void setSpringParams(MsModel& ms, uint32_t objectIndex, const SpringClothParams& params);

}  // namespace vksim
