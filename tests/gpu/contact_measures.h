#pragma once
// What the tests of contacts between objects measure (tests/gpu/contacts*):
// the objects they build and the momentum, distances and intersections of
// a state, in double.
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "gpu_harness.h"
#include "scene/scene.h"
#include "solvers/reference_world.h"
#include "solvers/sim_model.h"

namespace vksim::test {

// A square cloth of side x side particles, `spacing` apart, at `position`,
// of 0.05 kg, with contacts of `thickness` (no self-contact, friction 0.3).
ClothObject contactCloth(const std::string& name, uint32_t side, float spacing, glm::vec3 position, float thickness);

// 4 substeps x 8 iterations on the per-colour path, contacts by `solve`.
SolverSettings contactSettings(ContactSolve solve);

// The particles' linear momentum, angular momentum about the world origin
// and kinetic energy (pinned particles left out).
struct Momenta {
    glm::dvec3 linear{0.0}, angular{0.0};
    double kinetic = 0.0;
};
Momenta momenta(const std::vector<glm::vec4>& x, const std::vector<glm::vec4>& v);

// The smallest distance between a particle of one object and one of another.
double closestAcrossObjects(const SimModel& model, const std::vector<glm::vec4>& x);

// The triangles of different objects that intersect (exactly, in double:
// geometry/triangle_intersection.h).
uint64_t intersectingTriangles(const SimModel& model, const std::vector<glm::vec4>& x);

// The smallest distance between the surfaces of two different objects, in
// double: over every pair of their triangles' edges (segment to segment)
// and every vertex against every triangle of the other. Their contacts keep
// it at least their contact distance t_a + t_b, less what the iterations
// leave unsolved.
double closestSurfaces(const SimModel& model, const std::vector<glm::vec4>& x);

// Steps `gpu` and the reference `cpu` `frames` frames side by side with
// `settings`: the largest distance between their positions at any frame's
// end, printed every 5 frames after `label`. `framesBefore`: the frames both
// have stepped already (a run followed in parts), which the printed frame
// numbers count.
double followReference(GpuRun& gpu, ReferenceSimulation& cpu, const SolverSettings& settings, uint32_t frames,
                       const std::string& label, uint32_t framesBefore = 0);

}  // namespace vksim::test
