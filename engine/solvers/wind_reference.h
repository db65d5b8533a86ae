#pragma once
// The wind passes (step/wind_stage.h, docs/physics.md §15) in double
// precision on the CPU, with the same shared math (particle/wind_math.glsl):
// the test oracle of one substep's wind accelerations.
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "model/shared_model.h"
#include "scene/air_params.h"

namespace vksim {

// Per particle, its acceleration from the wind at time t, for positions x
// (w: inverse mass) and velocities v: a third of each incident triangle's
// drag and lift over its mass, the triangles in the model's adjacency
// order; zero for a pinned particle or one whose object feels no wind.
std::vector<glm::dvec3> windAccelerationsReference(const SharedModel& model, std::span<const glm::vec4> x,
                                                   std::span<const glm::vec4> v, const AirSettings& air, double t);

}  // namespace vksim
