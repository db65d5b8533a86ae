#include "bench/bench_scenes.h"

#include <fmt/format.h>

namespace vksim {
namespace {

// cloth-pbd: the default scene's setting at any resolution: a 2 m square
// cloth pinned at two corners, over a sphere and the ground. It starts 2 cm
// above the sphere, so contacts are being resolved in the measured frames.
Scene clothOverSphere(uint32_t size) {
    Scene scene;
    scene.name = fmt::format("cloth-pbd {}x{}", size, size);
    scene.path = "(bench)";
    ClothObject cloth;
    cloth.name = "cloth";
    cloth.grid.size = {2.0f, 2.0f};
    cloth.grid.resolution = {size, size};
    cloth.position = {0.0f, 1.02f, 0.0f};
    cloth.mass = 1.0f;
    cloth.pinned = {{0, 0}, {size - 1, 0}};
    cloth.bending.stiffness = 0.1f;
    scene.cloths.push_back(cloth);

    ColliderDesc sphere;
    sphere.name = "ball";
    sphere.shape = ColliderShape::Sphere;
    sphere.position = {0.0f, 0.5f, 0.0f};
    sphere.radius = 0.5f;
    sphere.friction = 0.4f;
    ColliderDesc ground;
    ground.name = "ground";
    ground.shape = ColliderShape::Plane;
    ground.friction = 0.4f;
    scene.colliders = {sphere, ground};
    return scene;
}

uint64_t gridParticles(uint32_t size) { return uint64_t{size} * size; }

// Per grid vertex: 5 particle vec4s (x, p, v, contact, normal) 80 B; ~4
// distance constraints x (16 + 4) 80 B; ~3 bending constraints x (48 + 4)
// 156 B; 2 triangles x 12 B; CSR adjacency 4 + 6 x 4 B. 368 B, rounded up.
constexpr uint32_t kClothBytesPerParticle = 400;

const std::vector<BenchScene> kScenes{
    {"cloth-pbd", "a square cloth pinned at two corners over a sphere (PBD, 4 substeps x 8 iterations)",
     "vertices per side", {64, 128, 256, 512, 1024, 2048, 4096}, clothOverSphere, gridParticles,
     kClothBytesPerParticle},
};

}  // namespace

std::span<const BenchScene> benchScenes() { return kScenes; }

}  // namespace vksim
