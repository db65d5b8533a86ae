// Physics of the GPU PBD step against closed forms and conservation laws
// (docs/physics.md §1 and 4). Every test prints the error it measured.
#include <cfloat>
#include <cmath>
#include <random>

#include <fmt/format.h>

#include "gpu_harness.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/model_builder.h"

namespace vksim::test {
namespace {

class PbdPhysics : public GpuTest {};

// Free fall under symplectic Euler is exact in closed form (docs/physics.md §4):
// y_n = y0 + n h vy0 - g h^2 n(n+1)/2 and x_n = x0 + n h vx0. In float32 (unit
// roundoff u = eps/2) a substep rounds v + h g (and h g) in the prediction,
// then h v and x + h v; the velocity update keeps predict's velocity where
// the solve moved nothing (positionBasedVelocity, docs/physics.md §9.2). A
// position's rounding, u |x|, stays in the position; a velocity's,
// u (|v| + h g), is carried by every later substep. After n substeps the
// position error is at most u (n max|x| + h (max|v| + h g)(n^2/2 + 2n)),
// maxima over the trajectory: "exact to float precision".
TEST_F(PbdPhysics, FreeFallMatchesClosedForm) {
    Scene scene = clothScene({8, 8}, {1.0f, 1.0f}, 2.0f);
    scene.cloths[0].stretch.enabled = false;
    scene.cloths[0].bending.enabled = false;
    scene.cloths[0].initialVelocity = glm::vec3(0.5f, 3.0f, -0.25f);
    const SimModel model = buildModel(scene);
    SolverSettings settings;
    settings.substeps = 4;
    GpuRun run(ctx(), model, settings);

    const uint32_t frames = 60;
    run.frames(frames);
    const std::vector<glm::vec4> x = run.positions();

    const double h = settings.timeStep / settings.substeps;
    const double n = frames * settings.substeps;
    const double g = -settings.gravity.y;
    const glm::dvec3 v0 = scene.cloths[0].initialVelocity;
    auto closedForm = [&](const glm::dvec3& x0, double k) {
        return glm::dvec3(x0.x + k * h * v0.x, x0.y + k * h * v0.y - g * h * h * k * (k + 1) / 2,
                          x0.z + k * h * v0.z);
    };
    double maxError = 0.0;
    double maxCoordinate = 0.0;
    double maxSpeed = 0.0;
    for (uint32_t i = 0; i < model.particleCount(); ++i) {
        const glm::dvec3 x0 = glm::dvec3(model.positions[i]);
        maxError = std::max(maxError, glm::length(glm::dvec3(x[i]) - closedForm(x0, n)));
        for (double k = 0; k <= n; ++k) {
            const glm::dvec3 xk = closedForm(x0, k);
            maxCoordinate = std::max({maxCoordinate, std::abs(xk.x), std::abs(xk.y), std::abs(xk.z)});
        }
    }
    maxSpeed = std::max(glm::length(v0), glm::length(v0 - glm::dvec3(0.0, g * n * h, 0.0)));
    const double u = FLT_EPSILON / 2;
    const double tolerance = u * (n * maxCoordinate + h * (maxSpeed + h * g) * (n * n / 2 + 2 * n));
    std::cout << fmt::format("[free fall] {} substeps: max |x - closed form| = {:.3e} m (bound {:.3e} m)\n", n,
                             maxError, tolerance);
    EXPECT_LE(maxError, tolerance);
}

// Internal constraints act in equal and opposite pairs weighted by inverse
// mass, so with no gravity, no colliders and nothing pinned the total linear
// momentum stays what it was, however hard the constraints work. Masses are
// random so that a wrong mass weighting cannot hide behind equal masses.
TEST_F(PbdPhysics, FreeClothConservesLinearMomentum) {
    Scene scene = clothScene({16, 16}, {1.0f, 1.0f}, 1.0f);
    scene.solver.gravity = glm::vec3(0.0f);
    SimModel model = buildModel(scene);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> jitter(-0.02f, 0.02f);
    std::uniform_real_distribution<float> speed(-1.0f, 1.0f);
    for (uint32_t i = 0; i < model.particleCount(); ++i) {
        model.positions[i] += glm::vec4(jitter(rng), jitter(rng), jitter(rng), 0.0f);
        model.velocities[i] = glm::vec4(speed(rng), speed(rng), speed(rng), 0.0f);
        model.positions[i].w *= std::uniform_real_distribution<float>(0.5f, 2.0f)(rng);
    }
    auto momentum = [&](const std::vector<glm::vec4>& v) {
        glm::dvec3 p(0.0);
        double magnitude = 0.0;
        for (uint32_t i = 0; i < model.particleCount(); ++i) {
            const double mass = 1.0 / model.positions[i].w;
            p += mass * glm::dvec3(v[i]);
            magnitude += mass * glm::length(glm::dvec3(v[i]));
        }
        return std::pair{p, magnitude};
    };
    const auto [before, scale] = momentum(model.velocities);

    SolverSettings settings = scene.solver;
    GpuRun run(ctx(), model, settings);
    run.frames(30);
    const auto [after, unused] = momentum(run.velocities());
    const double drift = glm::length(after - before) / scale;
    std::cout << fmt::format("[momentum] |P_after - P_before| / sum m|v| = {:.3e}\n", drift);
    // Momentum is conserved by the corrections, not by their float32 sums:
    // each write p += dp rounds by up to u|p| (u = 6e-8, |p| ~ 1 m), each
    // particle is written ~100 times per substep (8 iterations x 12
    // constraints), and v = (p - x)/h turns that into ~1e-4 m/s per substep
    // for velocities of ~1 m/s. Over 120 substeps those errors partly cancel;
    // measured drift is ~1e-4. 1e-3 is the bound; a wrong mass weighting
    // (w0 for w1) drifts by ~1e-1 with these random masses.
    EXPECT_LT(drift, 1e-3);
}

// The Gauss-Seidel sweeps converge: more iterations in one step leave a
// smaller mean |C| of the distance constraints of a stretched cloth.
TEST_F(PbdPhysics, DistanceResidualDecreasesWithIterations) {
    Scene scene = clothScene({24, 24}, {1.0f, 1.0f}, 1.0f);
    scene.solver.gravity = glm::vec3(0.0f);
    scene.cloths[0].bending.enabled = false;
    SimModel stretched = buildModel(scene);
    // Rest lengths come from the unstretched grid; then stretch it by 20% in x.
    for (glm::vec4& p : stretched.positions) p.x *= 1.2f;

    auto residual = [&](const std::vector<glm::vec4>& x) {
        double sum = 0.0;
        for (const gpu::DistanceConstraint& c : stretched.pbd.distance)
            sum += std::abs(glm::length(glm::dvec3(x[c.p0]) - glm::dvec3(x[c.p1])) - c.restLength);
        return sum / static_cast<double>(stretched.pbd.distance.size());
    };
    std::cout << fmt::format("[residual] before the step: mean |C| = {:.4e} m\n", residual(stretched.positions));
    double previous = INFINITY;
    for (uint32_t iterations : {1u, 2u, 4u, 8u, 16u, 32u}) {
        SolverSettings settings = scene.solver;
        settings.substeps = 1;
        settings.pbd.iterations = iterations;
        GpuRun run(ctx(), stretched, settings);
        run.frames(1);
        const double r = residual(run.positions());
        std::cout << fmt::format("[residual] {:>2} iterations: mean |C| = {:.4e} m\n", iterations, r);
        EXPECT_LT(r, previous) << "at " << iterations << " iterations";
        previous = r;
    }
}

}  // namespace
}  // namespace vksim::test
