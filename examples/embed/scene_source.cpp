#include "scene_source.h"

#include <filesystem>

#include "scene/scene_loader.h"

namespace {

// A 16x16 cloth pinned at two corners, falling onto a ball.
vksim::Scene clothInCode() {
    vksim::Scene scene;
    scene.name = "cloth built in code";
    scene.solver.substeps = 2;
    scene.solver.pbd.iterations = 4;
    vksim::ClothObject cloth;
    cloth.name = "cloth";
    cloth.grid.size = {1.0f, 1.0f};
    cloth.grid.resolution = {16, 16};
    cloth.position = {0.0f, 1.1f, 0.0f};
    cloth.pinned = {{0, 0}, {15, 0}};
    scene.cloths.push_back(cloth);
    vksim::ColliderDesc ball;
    ball.name = "ball";
    ball.shape = vksim::ColliderShape::Sphere;
    ball.position = {0.0f, 0.5f, 0.0f};
    ball.radius = 0.5f;
    scene.colliders.push_back(ball);
    return scene;
}

}  // namespace

vksim::Scene loadSceneSource(const std::optional<std::string>& file) {
    if (!file) return clothInCode();
    std::error_code error;
    if (!std::filesystem::is_regular_file(*file, error))
        throw SceneSourceError("scene file '" + *file + "' not found");
    try {
        return vksim::loadScene(*file);
    } catch (const vksim::SceneError& e) {
        throw SceneSourceError(e.what());
    }
}
