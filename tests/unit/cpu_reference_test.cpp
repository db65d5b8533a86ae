// The CPU reference solver (solvers/pbd/pbd_reference.h) against closed forms and
// conservation laws: free fall, momentum, convergence with iterations, the
// PBD/XPBD stiffness laws, and non-penetration of colliders.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include <fmt/format.h>

#include "cloth_scenes.h"
#include "geometry/shared_math.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_reference.h"

namespace vksim {
namespace {

using glm::dvec3;

SolverSettings noGravity() {
    SolverSettings settings;
    settings.gravity = glm::vec3(0.0f);
    return settings;
}

// Stretches the model's cloth by `factor` about its centre and adds a small
// deterministic out-of-plane wrinkle, so stretch and bending both act.
void stretch(SimModel& model, float factor) {
    glm::vec3 centre(0.0f);
    for (const glm::vec4& x : model.positions) centre += glm::vec3(x);
    centre /= float(model.positions.size());
    for (uint32_t i = 0; i < model.positions.size(); ++i) {
        glm::vec3 x = centre + factor * (glm::vec3(model.positions[i]) - centre);
        x.y += 0.01f * float(test::hashUnit(i, 3));
        model.positions[i] = glm::vec4(x, model.positions[i].w);
    }
}

// Particles with no constraints and no colliders.
SimModel particlesOnly(const std::vector<glm::vec3>& positions, const std::vector<glm::vec3>& velocities) {
    SimModel model;
    for (size_t i = 0; i < positions.size(); ++i) {
        model.positions.emplace_back(positions[i], 1.0f);
        model.velocities.emplace_back(velocities[i], 0.0f);
    }
    return model;
}

// size.w is the static coefficient (gpu::Collider::size): here the kinetic one, as a scene without
// "staticFriction" has.
gpu::Collider collider(uint32_t type, glm::vec3 position, glm::vec4 size, float thickness, float friction,
                       float restitution) {
    return {glm::vec4(position, 0.0f), glm::vec4(0, 0, 0, 1), glm::vec4(glm::vec3(size), friction), type, thickness,
            friction, restitution};
}

TEST(CpuReference, FreeFallMatchesTheClosedForm) {
    // Symplectic Euler, which PBD is without constraints, integrates constant
    // gravity exactly: v_n = v0 - n h g, y_n = y0 + n h v0 - g h^2 n (n+1) / 2
    // (docs/physics.md §4); only rounding remains.
    const std::vector<glm::vec3> x0{{0, 1, 0}, {0.5f, 3, -1}, {-2, 0, 0.25f}};
    const std::vector<glm::vec3> v0{{0, 0, 0}, {0.3f, 2, -0.1f}, {-1, -4, 0.5f}};
    SolverSettings settings;
    settings.substeps = 4;
    PbdReference solver(particlesOnly(x0, v0));
    const int frames = 120;
    for (int frame = 0; frame < frames; ++frame) solver.step(settings);

    const double h = double(settings.timeStep) / settings.substeps;
    const double n = double(frames) * settings.substeps;
    const dvec3 g(settings.gravity);
    double worst = 0.0;
    for (size_t i = 0; i < x0.size(); ++i) {
        dvec3 expected = dvec3(x0[i]) + n * h * dvec3(v0[i]) + g * (h * h * n * (n + 1) / 2);
        dvec3 expectedVelocity = dvec3(v0[i]) + n * h * g;
        double scale = glm::length(dvec3(x0[i])) + n * h * glm::length(dvec3(v0[i])) +
                       glm::length(g) * h * h * n * (n + 1) / 2;
        double error = glm::length(solver.positions()[i] - expected) / scale;
        worst = std::max(worst, error);
        EXPECT_LT(error, 1e-12) << "particle " << i;
        EXPECT_LT(glm::length(solver.velocities()[i] - expectedVelocity), 1e-10 * glm::length(expectedVelocity));
    }
    std::cout << fmt::format("free fall, {} substeps: worst relative position error {:.3e}\n", n, worst);
    RecordProperty("free_fall_relative_error", fmt::format("{:.3e}", worst));
}

TEST(CpuReference, FreeClothConservesLinearMomentum) {
    // Stretch and bending corrections are internal: sum_i m_i dp_i = 0 for
    // each projection (distance: m0 w0 n - m1 w1 n; bending: (sum K_i) g with
    // sum K_i = 0 exactly), so without gravity or colliders the momentum
    // stays what the initial velocities give, up to rounding.
    Scene scene = test::clothScene({12, 10});
    scene.cloths[0].bending = {ConstraintModel::Xpbd, 1.0f, 1e-3f, true};
    SimModel model = buildModel(scene);
    stretch(model, 1.25f);
    for (uint32_t i = 0; i < model.velocities.size(); ++i)
        model.velocities[i] = glm::vec4(0.5f * float(test::hashUnit(i, 1)), 0.5f * float(test::hashUnit(i, 2)),
                                        0.5f * float(test::hashUnit(i, 4)) + 0.3f, 0.0f);
    PbdReference solver(model);
    const dvec3 initial = solver.linearMomentum();
    double scale = 0.0;  // sum m |v|, what rounding is relative to
    for (uint32_t i = 0; i < solver.particleCount(); ++i)
        scale += glm::length(solver.velocities()[i]) / solver.inverseMasses()[i];

    const double residualBefore = solver.distanceResidual();
    for (int frame = 0; frame < 30; ++frame) solver.step(noGravity());
    const double drift = glm::length(solver.linearMomentum() - initial) / scale;
    std::cout << fmt::format("free cloth, 30 frames: momentum drift {:.3e} of sum m|v|; residual {:.3e} -> {:.3e} m\n",
                             drift, residualBefore, solver.distanceResidual());
    EXPECT_LT(drift, 1e-12);
    EXPECT_LT(solver.distanceResidual(), 0.1 * residualBefore) << "the constraints must have acted";
}

TEST(CpuReference, DistanceResidualFallsWithIterations) {
    Scene scene = test::clothScene({16, 16});
    scene.cloths[0].bending.enabled = false;
    SimModel model = buildModel(scene);
    stretch(model, 1.3f);
    SolverSettings settings = noGravity();
    settings.substeps = 1;

    double previous = PbdReference(model).distanceResidual();
    std::string table = fmt::format("mean |C| after one substep: initial {:.4e}", previous);
    for (uint32_t iterations : {1u, 2u, 4u, 8u, 16u, 32u}) {
        PbdReference solver(model);
        settings.pbd.iterations = iterations;
        solver.step(settings);
        double residual = solver.distanceResidual();
        table += fmt::format(", {} it: {:.4e}", iterations, residual);
        EXPECT_LT(residual, previous) << iterations << " iterations";
        previous = residual;
    }
    std::cout << table << "\n";
}

TEST(CpuReference, PbdStiffnessIsCorrectedForTheIterationCount) {
    // One distance constraint, one end pinned: each iteration scales C by
    // (1 - k'), k' = 1 - (1 - k)^(1/n_s), so after n_s iterations C is
    // (1 - k) C0 whatever n_s is (docs/physics.md §1).
    SimModel model = particlesOnly({{0, 0, 0}, {1.5f, 0, 0}}, {{0, 0, 0}, {0, 0, 0}});
    model.positions[0].w = 0.0f;
    const float k = 0.6f;
    model.pbd.materials.push_back({gpu::kModePbd, k, 0.0f, 0.0f});
    model.pbd.distance.push_back({0, 1, 1.0f, 0});
    model.pbd.distanceGroups.colours.push_back({0, 1});
    SolverSettings settings = noGravity();
    settings.substeps = 1;
    for (uint32_t iterations : {1u, 3u, 10u}) {
        PbdReference solver(model);
        settings.pbd.iterations = iterations;
        solver.step(settings);
        EXPECT_NEAR(solver.distanceResidual(), (1.0 - double(k)) * 0.5, 1e-12) << iterations << " iterations";
    }
}

TEST(CpuReference, XpbdComplianceFollowsItsClosedForm) {
    // XPBD, one constraint along x, one free end (w = 1): C is linear along
    // the constraint, so within a substep the multiplier converges at once to
    // lambda = -C / (w + alpha~), leaving C' = C alpha~ / (w + alpha~),
    // alpha~ = alpha / h^2, whatever the iteration count (Macklin 2016) --
    // provided lambda restarts from 0 every substep. Over several substeps
    // the free end then follows the 1D recurrence below exactly.
    SimModel model = particlesOnly({{0, 0, 0}, {1.5f, 0, 0}}, {{0, 0, 0}, {0, 0, 0}});
    model.positions[0].w = 0.0f;
    const float compliance = 1e-4f;
    model.pbd.materials.push_back({gpu::kModeXpbd, 1.0f, compliance, 0.0f});
    model.pbd.distance.push_back({0, 1, 1.0f, 0});
    model.pbd.distanceGroups.colours.push_back({0, 1});
    SolverSettings settings = noGravity();
    for (uint32_t substeps : {1u, 2u, 5u}) {
        const double h = double(settings.timeStep) / substeps;
        const double alphaTilde = double(compliance) / (h * h);
        double y = 1.5, u = 0.0;  // free end: position and velocity
        for (uint32_t s = 0; s < substeps; ++s) {
            double predicted = y + h * u;
            double projected = 1.0 + (predicted - 1.0) * alphaTilde / (1.0 + alphaTilde);
            u = (projected - y) / h;
            y = projected;
        }
        for (uint32_t iterations : {1u, 4u, 20u}) {
            PbdReference solver(model);
            settings.substeps = substeps;
            settings.pbd.iterations = iterations;
            solver.step(settings);
            EXPECT_NEAR(solver.positions()[1].x, y, 1e-12) << substeps << " substeps, " << iterations << " iterations";
            EXPECT_NEAR(solver.velocities()[1].x, u, 1e-9) << substeps << " substeps, " << iterations << " iterations";
        }
    }
}

TEST(CpuReference, XpbdWithZeroComplianceIsPbdWithStiffnessOne) {
    // dLambda = (-C - 0 lambda) / (sum w |grad C|^2 + 0) is the PBD step with
    // k' = 1, operation for operation: the trajectories are identical.
    Scene scene = test::defaultLikeScene();
    scene.cloths[0].grid.resolution = {12, 12};
    scene.cloths[0].pinned = {{0, 11}, {11, 11}};
    ColliderDesc ball;
    ball.shape = ColliderShape::Sphere;
    ball.position = {0.1f, 0.4f, 0.0f};
    ball.radius = 0.3f;
    scene.colliders.push_back(ball);
    auto run = [&](ConstraintParams params) {
        scene.cloths[0].stretch = params;
        scene.cloths[0].bending = params;
        PbdReference solver(buildModel(scene));
        for (int frame = 0; frame < 40; ++frame) solver.step(scene.solver);
        return solver;
    };
    PbdReference pbd = run({ConstraintModel::Pbd, 1.0f, 0.0f, true});
    PbdReference xpbd = run({ConstraintModel::Xpbd, 1.0f, 0.0f, true});
    PbdReference soft = run({ConstraintModel::Xpbd, 1.0f, 1e-3f, true});
    double difference = 0.0, softDifference = 0.0;
    for (uint32_t i = 0; i < pbd.particleCount(); ++i) {
        difference = std::max(difference, glm::length(pbd.positions()[i] - xpbd.positions()[i]));
        softDifference = std::max(softDifference, glm::length(pbd.positions()[i] - soft.positions()[i]));
    }
    std::cout << fmt::format("PBD k=1 vs XPBD alpha=0: max |dx| {:.3e} m; vs XPBD alpha=1e-3: {:.3e} m\n", difference,
                             softDifference);
    EXPECT_LT(difference, 1e-12);
    EXPECT_GT(softDifference, 1e-3) << "a compliant material must give a different, softer cloth";
    EXPECT_GT(soft.distanceResidual(), pbd.distanceResidual());
}

TEST(CpuReference, DroppedParticlesStayOutsideColliders) {
    struct Case {
        const char* name;
        gpu::Collider collider;
        glm::vec3 start;
    };
    const Case cases[] = {
        {"plane", collider(gpu::kColliderPlane, {0, 0, 0}, glm::vec4(0), 0.02f, 0.3f, 0.0f), {0.0f, 1.0f, 0.0f}},
        {"sphere", collider(gpu::kColliderSphere, {0, 0, 0}, {0.5f, 0, 0, 0}, 0.01f, 0.1f, 0.0f), {0.05f, 1.2f, 0.02f}},
        {"box", collider(gpu::kColliderBox, {0, 0, 0}, {0.4f, 0.3f, 0.5f, 0}, 0.0f, 0.3f, 0.0f), {0.1f, 1.0f, 0.1f}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        SimModel model = particlesOnly({c.start}, {{0.4f, 0.0f, 0.0f}});
        model.colliders.push_back(c.collider);
        PbdReference solver(model);
        SolverSettings settings;
        const gpu::Collider& k = c.collider;
        double closest = 1e9;  // smallest C = f - thickness seen after a frame
        for (int frame = 0; frame < 180; ++frame) {
            solver.step(settings);
            double C = ref::sdfWorld(k.type, dvec3(glm::vec3(k.position)), glm::normalize(glm::dvec4(k.rotation)),
                                     glm::dvec4(k.size), solver.positions()[0]) - k.thickness;
            closest = std::min(closest, C);
        }
        const dvec3 x = solver.positions()[0];
        std::cout << fmt::format("{}: smallest f - thickness after a frame {:.3e} m, final position ({:.4f}, {:.4f}, "
                                 "{:.4f})\n", c.name, closest, x.x, x.y, x.z);
        EXPECT_LT(closest, 1e-3) << "the particle must have reached the collider";
        // The last projection of each substep leaves C >= 0 up to rounding
        // (the stencil gradient's direction error only slows convergence).
        EXPECT_GT(closest, -1e-9);
    }
}

TEST(CpuReference, RestitutionBouncesAtMuNTimesTheImpactSpeed) {
    SimModel model = particlesOnly({{0, 1, 0}}, {{0, 0, 0}});
    model.colliders.push_back(collider(gpu::kColliderPlane, {0, 0, 0}, glm::vec4(0), 0.0f, 0.0f, 0.5f));
    PbdReference solver(model);
    SolverSettings settings;
    settings.substeps = 1;
    double impact = 0.0, rebound = 0.0;
    for (int frame = 0; frame < 40 && rebound == 0.0; ++frame) {
        double before = solver.velocities()[0].y;
        solver.step(settings);
        if (solver.velocities()[0].y > 0.0) {
            // The approach speed is v after gravity in this substep.
            impact = -(before - 9.81 * settings.timeStep);
            rebound = solver.velocities()[0].y;
        }
    }
    ASSERT_GT(impact, 4.0);  // fell ~1 m
    std::cout << fmt::format("bounce: impact {:.4f} m/s, rebound {:.4f} m/s\n", impact, rebound);
    EXPECT_NEAR(rebound, 0.5 * impact, 1e-5);
}

}  // namespace
}  // namespace vksim
