#pragma once
// Small scenes shared by the model-builder, colouring and CPU reference tests.
#include <cmath>
#include <cstdint>

#include <glm/glm.hpp>

#include "scene/scene.h"
#include "scene/scene_loader.h"
#include "solvers/sim_model.h"

namespace vksim::test {

// One cloth, flat in world XZ at height 1, no colliders, default solver.
inline Scene clothScene(glm::uvec2 resolution, glm::vec2 size = {1.0f, 1.0f}) {
    Scene scene;
    scene.name = "test";
    ClothObject cloth;
    cloth.name = "cloth";
    cloth.grid.resolution = resolution;
    cloth.grid.size = size;
    cloth.position = {0.0f, 1.0f, 0.0f};
    scene.cloths.push_back(cloth);
    return scene;
}

// Like the default scene: a 48x48 cloth hanging from two corners.
inline Scene defaultLikeScene() {
    Scene scene = clothScene({48, 48});
    scene.cloths[0].pinned = {{0, 47}, {47, 47}};
    return scene;
}

// Two small PBD cloths (the first with pins as attachments) around a PD
// one: objects of two solvers, each PBD one with its own constraints.
inline Scene threeObjects() {
    return parseScene(R"({
        "objects": [
          { "type": "cloth", "name": "a", "size": [1, 1], "resolution": [7, 5], "position": [0, 1, 0],
            "mass": 1, "pinned": [[0, 0]], "pinsAsAttachments": true },
          { "type": "cloth", "name": "pd", "method": "pd", "size": [1, 1], "resolution": [4, 4],
            "position": [2, 1, 0], "mass": 1 },
          { "type": "cloth", "name": "b", "size": [1, 1], "resolution": [6, 9], "position": [-2, 1, 0],
            "mass": 1, "pinned": [[0, 0], [-1, 0]] } ] })",
                      "three.json");
}

// A unit quaternion (x, y, z, w) for `angle` radians about `axis`.
inline glm::vec4 axisAngle(glm::vec3 axis, float angle) {
    glm::vec3 u = glm::normalize(axis) * std::sin(0.5f * angle);
    return {u.x, u.y, u.z, std::cos(0.5f * angle)};
}

// Deterministic pseudo-random numbers in [-1, 1] (no <random>: its
// distributions differ between standard libraries).
inline double hashUnit(uint32_t i, uint32_t salt) {
    uint32_t h = i * 0x9E3779B1u ^ (salt + 0x7F4A7C15u) * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return double(h) / double(0xFFFFFFFFu) * 2.0 - 1.0;
}

}  // namespace vksim::test
