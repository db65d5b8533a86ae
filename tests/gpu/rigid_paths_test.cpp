// The rigid bodies' two dispatch paths (docs/physics.md §11, "Two dispatch
// paths, the same bits") with many bodies: every body is stepped on each
// path, and the paths give the same bits. On lavapipe a frame of more than
// about 60 bodies in one dispatch once outran the driver's loop limit
// (solvers/rigid/rigid_frame_items.h) and left the last bodies unmoved.
#include <cmath>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "gpu_harness.h"
#include "solvers/model_builder.h"
#include "solvers/rigid/rigid_solver.h"

namespace vksim::test {
namespace {

class RigidPaths : public GpuTest {};

// The two paths. "auto" takes one of them (chooseRigidPath, tested in
// tests/unit/dispatch_path_choice_test.cpp: per substep for 100 bodies on
// lavapipe), through the same dispatches, so a run of it here would repeat
// one of these runs bit for bit.
constexpr RigidPath kPaths[] = {RigidPath::OneWorkgroup, RigidPath::PerSubstep};
const char* pathName(RigidPath path) { return path == RigidPath::OneWorkgroup ? "oneWorkgroup" : "perSubstep"; }

BodyDesc namedBody(BodyShape shape, uint32_t index, glm::vec3 position) {
    BodyDesc body;
    body.shape = shape;
    body.name = fmt::format("body {}", index);
    body.source = fmt::format("/bodies/{}", index);
    body.position = position;
    body.halfExtents = glm::vec3(0.1f);
    body.radius = shape == BodyShape::Capsule ? 0.06f : 0.1f;
    body.halfLength = 0.06f;
    body.friction = 0.5f;
    body.restitution = 0.2f;
    return body;
}

glm::vec3 freeVelocity(uint32_t b) {
    return {0.3f + 0.01f * float(b % 7), -0.2f + 0.004f * float(b), 0.1f - 0.02f * float(b % 5)};
}

// 100 spheres 1 m apart in zero gravity, each with its own velocity: over
// two frames none comes near another, so each moves freely, and symplectic
// Euler without gravity or damping keeps the velocity exactly and sums
// c += h v in the position: x0 + v t to the rounding of one float addition
// per substep and coordinate, half an ulp at |x| < 16 m (4.8e-7 m), so at
// most sqrt(3) * 8 * 4.8e-7 = 6.6e-6 m. A body left unmoved is off by
// |v| t > 1 cm.
TEST_F(RigidPaths, EveryOneOfAHundredFreeBodiesMoves) {
    Scene scene;
    scene.name = "free bodies";
    scene.path = "free.json";
    scene.solver.gravity = glm::vec3(0.0f);
    constexpr uint32_t kBodies = 100;
    for (uint32_t b = 0; b < kBodies; ++b) {
        BodyDesc body = namedBody(BodyShape::Sphere, b, {float(b % 10), 1.0f + float(b / 10), 0.0f});
        body.velocity = freeVelocity(b);
        scene.bodies.push_back(body);
    }
    const SimModel model = buildModel(scene);
    constexpr uint32_t kFrames = 2;
    const double t = kFrames * double(scene.solver.timeStep);
    const double bound = std::sqrt(3.0) * kFrames * scene.solver.substeps * 0.5 * std::ldexp(1.0, 3 - 23);
    for (RigidPath path : kPaths) {
        SolverSettings settings = scene.solver;
        settings.rigid.path = path;
        GpuRun gpu(ctx(), model, settings);
        gpu.frames(kFrames);
        const std::vector<gpu::RigidBodyState> states = gpu.stepper().solver<RigidSolver>().readStates();
        double worst = 0.0;
        uint32_t worstBody = 0, unmoved = 0;
        for (uint32_t b = 0; b < kBodies; ++b) {
            const glm::dvec3 v(freeVelocity(b));
            const glm::dvec3 expected = glm::dvec3(glm::vec3(model.rigid.states[b].position)) + v * t;
            const double error = glm::length(glm::dvec3(glm::vec3(states[b].position)) - expected);
            if (error > worst) worst = error, worstBody = b;
            if (states[b].position == model.rigid.states[b].position) ++unmoved;
            EXPECT_EQ(glm::vec3(states[b].linearVelocity), freeVelocity(b)) << pathName(path) << " body " << b;
        }
        std::printf("%s: %u bodies, %u unmoved; largest |x - (x0 + v t)| %.2e m (body %u; bound %.1e m)\n",
                    pathName(path), kBodies, unmoved, worst, worstBody, bound);
        EXPECT_EQ(unmoved, 0u) << pathName(path);
        EXPECT_LT(worst, bound) << pathName(path);
    }
}

// The same world stepped on both paths: the same bits, body by body.
void expectSameBitsOnBothPaths(VulkanContext& ctx, const Scene& scene, uint32_t frames, const char* what) {
    const SimModel model = buildModel(scene);
    SolverSettings one = scene.solver, perSubstep = scene.solver;
    one.rigid.path = RigidPath::OneWorkgroup;
    perSubstep.rigid.path = RigidPath::PerSubstep;
    GpuRun a(ctx, model, one);
    GpuRun b(ctx, model, perSubstep);
    a.frames(frames);
    b.frames(frames);
    const std::vector<gpu::RigidBodyState> sa = a.stepper().solver<RigidSolver>().readStates();
    const std::vector<gpu::RigidBodyState> sb = b.stepper().solver<RigidSolver>().readStates();
    ASSERT_EQ(sa.size(), sb.size());
    uint32_t differing = 0, moved = 0;
    for (uint32_t k = 0; k < sa.size(); ++k) {
        if (std::memcmp(&sa[k], &sb[k], sizeof(sa[k])) != 0) ++differing;
        if (sb[k].position != model.rigid.states[k].position || sb[k].rotation != model.rigid.states[k].rotation) ++moved;
    }
    std::printf("%s, %zu bodies, %u frames: %u bodies differ between the paths; %u moved\n", what, sa.size(), frames,
                differing, moved);
    EXPECT_EQ(differing, 0u) << what;
    EXPECT_EQ(moved, sa.size()) << what << ": every body falls, turns or is pushed";
}

// 64 boxes, balls and capsules 0.5 m apart, resting on the ground with a
// spin: each body against the ground, no pair in reach.
TEST_F(RigidPaths, SpacedBodiesGiveTheSameBitsOnBothPaths) {
    Scene scene;
    scene.name = "spaced";
    scene.path = "spaced.json";
    for (uint32_t b = 0; b < 64; ++b) {
        BodyDesc body = namedBody(static_cast<BodyShape>(b % 3), b, {0.5f * float(b % 8), 0.1f, 0.5f * float(b / 8)});
        body.angularVelocity = glm::vec3(0.5f, 1.0f + 0.1f * float(b % 4), -0.3f);
        scene.bodies.push_back(body);
    }
    ColliderDesc ground;
    ground.name = "ground";
    ground.shape = ColliderShape::Plane;
    ground.friction = 0.5f;
    scene.colliders.push_back(ground);
    expectSameBitsOnBothPaths(ctx(), scene, 2, "spaced bodies");
}

// 64 boxes, balls and capsules in a 4 x 4 x 4 lattice 0.2 m apart, each
// tilted: every body touches or overlaps its neighbours and the bottom
// layer the ground, so every pair contact and push-out runs from the first
// substep.
TEST_F(RigidPaths, TouchingPileGivesTheSameBitsOnBothPaths) {
    Scene scene;
    scene.name = "touching pile";
    scene.path = "pile.json";
    for (uint32_t b = 0; b < 64; ++b) {
        BodyDesc body = namedBody(static_cast<BodyShape>(b % 3), b,
                                  {0.2f * float(b % 4), 0.1f + 0.2f * float(b / 16), 0.2f * float((b / 4) % 4)});
        const float angle = 0.1f * float(b % 5);
        body.rotation = glm::vec4(glm::normalize(glm::vec3(1.0f, float(b % 3), 0.5f)) * std::sin(angle), std::cos(angle));
        scene.bodies.push_back(body);
    }
    ColliderDesc ground;
    ground.name = "ground";
    ground.shape = ColliderShape::Plane;
    ground.friction = 0.5f;
    scene.colliders.push_back(ground);
    expectSameBitsOnBothPaths(ctx(), scene, 2, "touching pile");
}

}  // namespace
}  // namespace vksim::test
