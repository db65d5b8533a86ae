// Colliders that move: the contact passes see the collider's surface
// velocity (Collider::linearVelocity, angularVelocity), so friction carries
// what rests on a moving surface along. A box with a surface velocity is a
// conveyor belt; a cloth lying on it has a closed form.
#include <fmt/format.h>

#include "gpu_harness.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_reference.h"

namespace vksim::test {
namespace {

class MovingCollider : public GpuTest {};

constexpr float kMu = 0.5f;
constexpr float kBelt = 1.0f;  // [m/s] along x

// A 0.4 m cloth lying on top of a wide box (top face at y = 0), nothing
// pinned, the box's surface moving at `belt` along x.
Scene conveyorScene(float belt) {
    Scene scene = clothScene({8, 8}, {0.4f, 0.4f}, 0.0f);
    ColliderDesc box;
    box.name = "belt";
    box.shape = ColliderShape::Box;
    box.position = glm::vec3(0.0f, -0.5f, 0.0f);
    box.halfExtents = glm::vec3(5.0f, 0.5f, 5.0f);
    box.friction = kMu;
    box.linearVelocity = glm::vec3(belt, 0.0f, 0.0f);
    scene.colliders.push_back(box);
    return scene;
}

double meanVx(const std::vector<glm::vec4>& velocities) {
    double sum = 0.0;
    for (const glm::vec4& v : velocities) sum += v.x;
    return sum / double(velocities.size());
}

// Coulomb friction on a resting contact: each substep the projection stops
// the normal approach speed g h, and friction takes at most mu g h off the
// tangential velocity relative to the surface (docs/physics.md §3), so a
// cloth dropped on a belt accelerates at mu g until it moves with it:
// v(t) = min(mu g t, v_belt). After 0.1 s that is 0.49 m/s, after 1 s the
// belt's 1 m/s. The cloth starts at rest on the surface, so every particle
// is in contact from the first substep and the closed form holds to float
// rounding (measured to 4 digits); 1% leaves room for that and nothing
// else (a wrong sign or a missing surface velocity gives -0.49 or 0 m/s).
// A box with no surface velocity leaves it exactly still along x.
TEST_F(MovingCollider, FrictionCarriesAClothAlongAConveyor) {
    const Scene scene = conveyorScene(kBelt);
    const SimModel model = buildModel(scene);
    GpuRun gpu(ctx(), model, scene.solver);
    gpu.frames(6);
    const double early = meanVx(gpu.velocities());
    const double expectedEarly = std::min(double(kMu) * 9.81 * 0.1, double(kBelt));
    gpu.frames(54);
    const double late = meanVx(gpu.velocities());

    const Scene still = conveyorScene(0.0f);
    GpuRun staying(ctx(), buildModel(still), still.solver);
    staying.frames(60);
    const double stillVx = meanVx(staying.velocities());
    std::cout << fmt::format("[conveyor] mean vx after 0.1 s {:.4f} m/s (mu g t = {:.4f}), after 1 s {:.4f} m/s "
                             "(belt {:.1f}); on a still box {:.2e} m/s\n",
                             early, expectedEarly, late, kBelt, stillVx);
    EXPECT_NEAR(early, expectedEarly, 0.01 * expectedEarly);
    EXPECT_NEAR(late, kBelt, 0.02 * kBelt);
    EXPECT_EQ(stillVx, 0.0);
}

// The same conveyor in the CPU reference world (double): the GPU follows it
// to float rounding, as every contact test does (gpu_vs_reference_test.cpp).
TEST_F(MovingCollider, GpuMatchesTheReferenceOnAConveyor) {
    const Scene scene = conveyorScene(kBelt);
    const SimModel model = buildModel(scene);
    GpuRun gpu(ctx(), model, scene.solver);
    PbdReference cpu(model);
    double worst = 0.0;
    for (uint32_t f = 0; f < 30; ++f) {
        gpu.frames(1);
        cpu.step(scene.solver);
        const std::vector<glm::vec4> x = gpu.positions();
        for (uint32_t i = 0; i < cpu.particleCount(); ++i)
            worst = std::max(worst, glm::length(glm::dvec3(x[i]) - cpu.positions()[i]));
    }
    std::cout << fmt::format("[conveyor] GPU vs CPU reference over 30 frames: max {:.3e} m\n", worst);
    EXPECT_LT(worst, 1e-3);
}

}  // namespace
}  // namespace vksim::test
