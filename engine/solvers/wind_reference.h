#pragma once
// The wind passes (step/wind_stage.h, docs/physics.md §15) in double
// precision on the CPU, with the same shared math (particle/wind_math.glsl):
// the test oracle of one substep's wind accelerations.
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "model/shared_model.h"
#include "scene/air_params.h"

namespace vksim {

// Per particle, its acceleration from the wind at time t, for positions x
// (w: inverse mass), velocities v and the surface's `triangles` as they are
// now (three indices each; a tearing cloth drops and re-indexes its own):
// a third of the drag and lift of each triangle it is a corner of, over
// its mass; zero for a pinned particle or one whose object feels no wind.
// Each triangle's force is added to its corners, not gathered through the
// GPU's vertex -> triangle rows, so the rows are checked too.
std::vector<glm::dvec3> windAccelerationsReference(const SharedModel& model, std::span<const glm::vec4> x,
                                                   std::span<const glm::vec4> v, std::span<const uint32_t> triangles,
                                                   const AirSettings& air, double t);

}  // namespace vksim
