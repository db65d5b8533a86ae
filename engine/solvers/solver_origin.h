#pragma once
// A solver's origin O (docs/physics.md §9.2, "Far from the origin"): the
// position its predicted positions are relative to, p - O, so that a range
// living far from the world origin keeps the precision of its own size,
// not of its distance. Constant for the solver's life: the centroid of its
// particles in the model, rounded to a multiple of kSolverOriginGrid, so
// that a range within half of it of the world origin has O = 0 and steps
// exactly as world positions do, and x - O is exact near O.
#include <span>

#include <glm/glm.hpp>

#include "model/shared_model.h"
#include "state/particle_range.h"

namespace vksim {

inline constexpr float kSolverOriginGrid = 16.0f;  // [m]

glm::vec3 solverOrigin(std::span<const glm::vec4> positions, ParticleRange range);

// The origin of a solver stepping `range` of `model`: solverOrigin() of its
// particles, or, when one of its objects has contacts, of every object's
// particles that has contacts. The contacts compare the predicted positions
// of several solvers (docs/physics.md §14), so those share one origin.
glm::vec3 solverOrigin(const SharedModel& model, ParticleRange range);

}  // namespace vksim
