#pragma once
// Small vertex block descent solid scenes shared by the CPU (unit) and GPU
// tests (docs/physics.md §16).
#include <cmath>
#include <cstdint>

#include <glm/glm.hpp>

#include "scene/scene.h"

namespace vksim::test {

// A "method": "vbd" box of `cells` cube cells (6 tetrahedra each), no pins.
inline SolidObject vbdBox(glm::uvec3 cells, glm::vec3 size, glm::vec3 position,
                          ElasticModel model = ElasticModel::NeoHookean, float youngsModulus = 1e6f) {
    SolidObject box;
    box.name = "box";
    box.shape = SolidShape::Box;
    box.size = size;
    box.cells = cells;
    box.position = position;
    box.method = SolidMethod::Vbd;
    box.material = ElasticMaterial{.model = model, .youngsModulus = youngsModulus, .poissonRatio = 0.3f,
                                   .density = 500.0f};
    return box;
}

// A soft bar along X hanging from its pinned -X face under gravity, no
// colliders: it swings down by a few centimetres.
inline Scene vbdHangingBarScene(ElasticModel model = ElasticModel::NeoHookean) {
    Scene scene;
    scene.name = "vbd hanging bar";
    SolidObject bar = vbdBox({4, 2, 2}, {0.8f, 0.2f, 0.2f}, {0.0f, 1.0f, 0.0f}, model, 3e5f);
    bar.name = "bar";
    bar.pinnedFaces = {BoxFace::MinusX};
    scene.solids.push_back(bar);
    return scene;
}

// A soft cube dropped from 0.3 m onto a ground plane (friction 0.5).
inline Scene vbdFallingCubeScene() {
    Scene scene;
    scene.name = "vbd falling cube";
    scene.solids.push_back(vbdBox({3, 3, 3}, {0.3f, 0.3f, 0.3f}, {0.0f, 0.45f, 0.0f}, ElasticModel::NeoHookean, 2e5f));
    ColliderDesc ground;
    ground.name = "ground";
    ground.friction = 0.5f;
    scene.colliders.push_back(ground);
    return scene;
}

// The slope of docs/physics.md §16, "Friction in the sweeps": the soft
// cube resting on the ground (friction mu_k, static mu_s) under gravity
// tilted by theta about Z, so that it pulls down the slope along +X.
inline constexpr double kSlopeAngle = 20.0 * 3.14159265358979323846 / 180.0;
inline Scene vbdCubeOnASlopeScene(float muKinetic, float muStatic) {
    Scene scene = vbdFallingCubeScene();
    scene.name = "vbd cube on a slope";
    scene.solids[0].position = {0.0f, 0.15f, 0.0f};
    scene.colliders[0].friction = muKinetic;
    scene.colliders[0].staticFriction = muStatic;
    scene.solver.gravity =
        glm::vec3(float(9.81 * std::sin(kSlopeAngle)), float(-9.81 * std::cos(kSlopeAngle)), 0.0f);
    return scene;
}

// Two soft cubes with "contacts" (their surface vertices spheres of 6 cm,
// over half a cell): one resting on the ground, the other dropped onto it.
inline Scene vbdStackedCubesScene() {
    Scene scene = vbdFallingCubeScene();
    scene.solids[0].position = {0.0f, 0.16f, 0.0f};
    scene.solids[0].name = "bottom";
    SolidObject top = vbdBox({3, 3, 3}, {0.3f, 0.3f, 0.3f}, {0.02f, 0.75f, 0.0f}, ElasticModel::NeoHookean, 2e5f);
    top.name = "top";
    scene.solids.push_back(top);
    for (SolidObject& solid : scene.solids) solid.contacts = ContactParams{.enabled = true, .thickness = 0.06f};
    return scene;
}

// Two soft slabs of 3 x 1 x 3 cells (0.3 x 0.1 x 0.3 m, 6 cm contact
// spheres) stacked on the slope of vbdCubeOnASlopeScene: the bottom one on
// the ground (friction 0.9, above tan 20 degrees = 0.364, so that it
// stays), the top one's vertices on the bottom one's at the contact
// distance D = 0.12 m; the pair's coefficients mu_k and mu_s. Flat, so
// that the stack does not tip.
inline Scene vbdStackedSlabsOnASlopeScene(float muKinetic, float muStatic) {
    Scene scene = vbdCubeOnASlopeScene(0.9f, 0.9f);
    scene.name = "vbd stacked slabs on a slope";
    scene.solids.clear();
    for (const float y : {0.06f, 0.29f}) {
        SolidObject slab = vbdBox({3, 1, 3}, {0.3f, 0.1f, 0.3f}, {0.0f, y, 0.0f}, ElasticModel::NeoHookean, 2e5f);
        slab.name = y < 0.1f ? "bottom" : "top";
        slab.contacts = ContactParams{.enabled = true, .thickness = 0.06f, .friction = muKinetic,
                                      .staticFriction = muStatic};
        scene.solids.push_back(slab);
    }
    return scene;
}

// Two soft cubes with "contacts" (6 cm spheres) and no gravity, thrown at
// each other at 1 m/s each along X, slightly offset in Y so that the
// contact turns them.
inline Scene vbdCollidingCubesScene() {
    Scene scene;
    scene.name = "vbd colliding cubes";
    scene.solver.gravity = glm::vec3(0.0f);
    for (float side : {-1.0f, 1.0f}) {
        SolidObject cube = vbdBox({3, 3, 3}, {0.3f, 0.3f, 0.3f}, {0.3f * side, 1.0f + 0.05f * side, 0.0f},
                                  ElasticModel::NeoHookean, 2e5f);
        cube.name = side < 0.0f ? "left" : "right";
        cube.initialVelocity = {-side, 0.0f, 0.0f};
        cube.contacts = ContactParams{.enabled = true, .thickness = 0.06f};
        scene.solids.push_back(cube);
    }
    return scene;
}

// A free cube with no gravity, moving and stretching: velocity
// (0.5, 0.2, 0) m/s plus 2 (x - c) 1/s about its centre c.
inline Scene vbdFreeCubeScene(uint32_t iterations) {
    Scene scene;
    scene.name = "vbd free cube";
    scene.solver.gravity = glm::vec3(0.0f);
    scene.solver.vbd.iterations = iterations;
    scene.solids.push_back(vbdBox({3, 2, 2}, {0.3f, 0.2f, 0.2f}, {0.0f, 1.0f, 0.0f}, ElasticModel::NeoHookean, 1e5f));
    scene.solids[0].initialVelocity = {0.5f, 0.2f, 0.0f};
    return scene;
}

}  // namespace vksim::test
