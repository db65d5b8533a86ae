// The GPU step against the CPU reference in double precision (the same passes,
// the same colour order, the same shared math): they may differ only by
// float32 rounding, which the tolerances below are sized for.
#include <fmt/format.h>

#include "gpu_harness.h"
#include <cmath>

#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_reference.h"

namespace vksim::test {
namespace {

class GpuVsReference : public GpuTest {};

struct Difference {
    double max = 0.0;
    double mean = 0.0;
};

Difference compare(const std::vector<glm::vec4>& gpu, const PbdReference& cpu) {
    Difference d;
    for (uint32_t i = 0; i < cpu.particleCount(); ++i) {
        const double e = glm::length(glm::dvec3(gpu[i]) - cpu.positions()[i]);
        d.max = std::max(d.max, e);
        d.mean += e;
    }
    d.mean /= cpu.particleCount();
    return d;
}

// Steps both solvers frame by frame and returns the largest difference seen.
Difference runBoth(VulkanContext& ctx, const Scene& scene, uint32_t frames, const char* label) {
    const SimModel model = buildModel(scene);
    GpuRun gpu(ctx, model, scene.solver);
    PbdReference cpu(model);
    Difference worst;
    for (uint32_t f = 1; f <= frames; ++f) {
        gpu.frames(1);
        cpu.step(scene.solver);
        const Difference d = compare(gpu.positions(), cpu);
        if (f % 10 == 0 || f == frames)
            std::cout << fmt::format("[gpu vs cpu] {} frame {:>3}: max {:.3e} m, mean {:.3e} m\n", label, f, d.max,
                                     d.mean);
        worst.max = std::max(worst.max, d.max);
        worst.mean = std::max(worst.mean, d.mean);
    }
    return worst;
}

// A cloth pinned at two corners swinging under gravity (stretch PBD, bending
// XPBD), no contacts. float32 positions of order 1 m carry ~6e-8 m of
// rounding per write and each particle is written a few hundred times per
// frame; the solve is contractive, so these differences stay bounded, but a
// swinging cloth is a pendulum whose phase error shows up as position error
// proportional to its speed. Measured: about 3e-4 m at the fastest swing
// (frame 40 of 60). 1e-3 m (0.1% of the cloth size) is the bound; a wrong
// colour order, a missing pass or a wrong stiffness correction moves
// particles by centimetres within a few frames.
TEST_F(GpuVsReference, PinnedClothWithoutContacts) {
    Scene scene = clothScene({12, 12}, {1.0f, 1.0f}, 1.5f);
    scene.cloths[0].pinned = {{0, 0}, {11, 0}};
    scene.cloths[0].bending.model = ConstraintModel::Xpbd;
    scene.cloths[0].bending.compliance = 1e-4f;
    const Difference d = runBoth(ctx(), scene, 60, "pinned cloth");
    EXPECT_LT(d.max, 1e-3);
}

// The same with contacts: a cloth falling onto a sphere resting on the
// ground, with friction, over the whole fall and settling (40 frames).
TEST_F(GpuVsReference, ClothFallingOnSphere) {
    Scene scene = clothScene({12, 12}, {1.0f, 1.0f}, 1.2f);
    ColliderDesc sphere;
    sphere.shape = ColliderShape::Sphere;
    sphere.position = glm::vec3(0.0f, 0.5f, 0.0f);
    sphere.radius = 0.5f;
    sphere.friction = 0.4f;
    sphere.thickness = 0.01f;
    ColliderDesc ground;
    ground.shape = ColliderShape::Plane;
    ground.friction = 0.5f;
    scene.colliders = {sphere, ground};
    const Difference d = runBoth(ctx(), scene, 40, "cloth on sphere");
    EXPECT_LT(d.max, 1e-3);
}

// Every collider type (rotated box, rotated capsule, sphere with restitution,
// plane), three cloths in one scene, PBD and XPBD families and soft pins.
// Each cloth lands on a face or a rounded surface: a cloth corner landing
// exactly on a box edge is a bifurcation (float and double pick different
// sides), which would test luck, not the solver.
TEST_F(GpuVsReference, AllColliderTypesAndObjects) {
    Scene scene;
    auto cloth = [](const char* name, glm::vec3 position, glm::vec2 size) {
        ClothObject c;
        c.name = name;
        c.grid.resolution = {10, 10};
        c.grid.size = size;
        c.position = position;
        c.mass = 0.5f;
        return c;
    };
    ClothObject onBox = cloth("on box", {-1.5f, 1.2f, 0.0f}, {0.6f, 0.6f});
    ClothObject onCapsule = cloth("on capsule", {0.0f, 1.2f, 0.0f}, {0.8f, 0.8f});
    onCapsule.stretch.model = ConstraintModel::Xpbd;
    onCapsule.stretch.compliance = 1e-7f;
    ClothObject bouncing = cloth("pinned softly", {1.5f, 1.2f, 0.0f}, {0.8f, 0.8f});
    bouncing.pinned = {{0, 0}, {9, 0}};
    bouncing.pinsAsAttachments = true;
    bouncing.attachment.model = ConstraintModel::Xpbd;
    bouncing.attachment.compliance = 1e-5f;
    scene.cloths = {onBox, onCapsule, bouncing};

    const float s = std::sqrt(0.5f);
    ColliderDesc box;
    box.shape = ColliderShape::Box;
    box.position = {-1.5f, 0.4f, 0.0f};
    box.halfExtents = {0.5f, 0.4f, 0.5f};
    box.rotation = {0.0f, std::sin(0.3f), 0.0f, std::cos(0.3f)};  // turned about Y: the top stays flat
    box.friction = 0.5f;
    ColliderDesc capsule;
    capsule.shape = ColliderShape::Capsule;
    capsule.position = {0.0f, 0.6f, 0.0f};
    capsule.radius = 0.2f;
    capsule.halfLength = 0.6f;
    capsule.rotation = {0.0f, 0.0f, s, s};  // axis along X
    capsule.friction = 0.3f;
    ColliderDesc sphere;
    sphere.shape = ColliderShape::Sphere;
    sphere.position = {1.5f, 0.5f, 0.5f};
    sphere.radius = 0.3f;
    sphere.restitution = 0.5f;
    ColliderDesc ground;
    ground.shape = ColliderShape::Plane;
    ground.thickness = 0.005f;
    scene.colliders = {box, capsule, sphere, ground};
    const Difference d = runBoth(ctx(), scene, 40, "all collider types");
    EXPECT_LT(d.max, 1e-3);
}

}  // namespace
}  // namespace vksim::test
