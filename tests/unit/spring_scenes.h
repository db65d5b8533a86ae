#pragma once
// Mass-spring objects for the spring tests: a cloth scene stepped by the
// mass-spring solver, and one object built straight from positions and
// triangles (any mesh, without a scene).
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "cloth_scenes.h"
#include "solvers/springs/spring_builder.h"
#include "solvers/springs/spring_system.h"

namespace vksim::test {

// clothScene() with "method": "springs" and these params.
inline Scene springClothScene(glm::uvec2 resolution, const SpringClothParams& params = {}) {
    Scene scene = clothScene(resolution);
    scene.cloths[0].method = SolverMethod::Springs;
    scene.cloths[0].springs = params;
    return scene;
}

// One object from rest positions and triangles, the system built.
inline MsModel springObject(std::span<const glm::dvec3> rest, std::span<const uint32_t> triangles,
                            SpringClothParams params = {}, uint32_t gridColumns = 0, uint32_t gridRows = 0) {
    MsModel ms;
    ms.particleCount = static_cast<uint32_t>(rest.size());
    SpringSource source;
    source.rest = rest;
    source.triangles = triangles;
    source.gridColumns = gridColumns;
    source.gridRows = gridRows;
    source.params = params;
    appendSpringObject(ms, source);
    buildSpringSystem(ms);
    return ms;
}

// A triangle list as a flat index list.
inline std::vector<uint32_t> flatten(std::span<const glm::uvec3> triangles) {
    std::vector<uint32_t> flat;
    for (const glm::uvec3& t : triangles) flat.insert(flat.end(), {t.x, t.y, t.z});
    return flat;
}

}  // namespace vksim::test
