#pragma once
// Small projective dynamics scenes shared by the CPU (unit) and GPU tests.
#include <cstdint>

#include <glm/glm.hpp>

#include "scene/scene.h"

namespace vksim::test {

// A soft bar along X, `cells` cube cells (6 tetrahedra each), pinned at its
// -X end, no colliders, one substep per frame.
inline Scene pdBarScene(glm::uvec3 cells = {6, 2, 2}, glm::vec3 size = {1.2f, 0.4f, 0.4f}) {
    Scene scene;
    scene.name = "pd bar";
    scene.solver.substeps = 1;
    SolidObject bar;
    bar.name = "bar";
    bar.shape = SolidShape::Box;
    bar.size = size;
    bar.cells = cells;
    bar.position = {0.0f, 1.0f, 0.0f};
    bar.mass = 10.0f;
    bar.strain.stiffness = 1e5f;
    bar.pinnedFaces = {BoxFace::MinusX};
    scene.solids.push_back(bar);
    return scene;
}

// A soft ball of 2 kg (tetrahedral strain and volume), no colliders, one
// substep per frame.
inline Scene pdBallScene(float radius, glm::vec3 position) {
    Scene scene;
    scene.name = "pd ball";
    scene.solver.substeps = 1;
    SolidObject ball;
    ball.name = "ball";
    ball.shape = SolidShape::Ball;
    ball.radius = radius;
    ball.cellsAcross = 4;
    ball.position = position;
    ball.mass = 2.0f;
    ball.volume.enabled = true;
    scene.solids.push_back(ball);
    return scene;
}

// A PD cloth flat in XZ at height 1, pinned at two corners of its first row.
inline Scene pdClothScene(glm::uvec2 resolution = {10, 10}) {
    Scene scene;
    scene.name = "pd cloth";
    scene.solver.substeps = 1;
    ClothObject cloth;
    cloth.name = "cloth";
    cloth.method = SolverMethod::Pd;
    cloth.grid.resolution = resolution;
    cloth.grid.size = {1.0f, 1.0f};
    cloth.position = {0.0f, 1.0f, 0.0f};
    cloth.mass = 1.0f;
    cloth.pinned = {{0, 0}, {resolution.x - 1, 0}};
    cloth.pd.strain.enabled = true;
    cloth.pd.strain.stiffness = 50.0f;
    scene.cloths.push_back(cloth);
    return scene;
}

}  // namespace vksim::test
