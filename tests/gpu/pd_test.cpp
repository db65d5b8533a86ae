// Projective dynamics on the GPU (sim/pd_solver.h) against the CPU reference
// with the exact global solve (solvers/pd/pd_reference.h): one global solve, whole
// steps, Chebyshev against plain Jacobi, a pinned bar's equilibrium, a ball
// on the ground, determinism. Validation (with synchronization validation)
// is on for all of them: any message fails the test.
#include <cmath>
#include <iostream>

#include <fmt/format.h>

#include "../unit/cloth_scenes.h"
#include "../unit/pd_scenes.h"
#include "diagnostics/state_hash.h"
#include "gpu_harness.h"
#include "solvers/model_builder.h"
#include "solvers/pd/pd_reference.h"
#include "solvers/pd/pd_solver.h"
#include "vk/buffer.h"

namespace vksim::test {
namespace {

class PdGpu : public GpuTest {};

// Steps a model with projective dynamics objects on the GPU, one frame per
// submission; the timer fits frames of up to maxJacobi Jacobi iterations.
class PdGpuRun : public GpuRun {
public:
    PdGpuRun(VulkanContext& ctx, const SimModel& model, const SolverSettings& settings, uint32_t maxJacobi = 0)
        : GpuRun(ctx, model, settings, withJacobi(settings, maxJacobi)), model_(model) {}
    // Back to the model's initial state.
    void reset() { GpuRun::reset(model_); }
    PdSolver& solver() { return stepper().solver<PdSolver>(); }

private:
    static SolverSettings withJacobi(SolverSettings settings, uint32_t maxJacobi) {
        settings.pd.jacobiIterations = std::max(settings.pd.jacobiIterations, maxJacobi);
        return settings;
    }
    const SimModel& model_;
};

double maxDistance(const std::vector<glm::vec4>& gpu, std::span<const glm::dvec3> cpu, uint32_t first, uint32_t count) {
    double d = 0.0;
    for (uint32_t i = first; i < first + count; ++i) d = std::max(d, glm::length(glm::dvec3(glm::vec3(gpu[i])) - cpu[i]));
    return d;
}

// One substep with one local/global iteration from a deformed state (the PD
// particles stretched by 10% about their centre, plus 1 cm of noise): the
// GPU's J Jacobi iterations against the direct solve of the same system.
// The error is relative to the size of the solve's correction max |q* - s|
// (about 4 cm here); float32 positions of ~1 m carry 6e-8 m of rounding per
// write, a floor of a few 1e-6 relative.
struct SolveError {
    double relative = 0.0;
    double absolute = 0.0;
};

struct OneSolve {
    const SimModel& model;
    std::vector<glm::dvec3> direct;  // q* of the CPU reference
    double correction = 0.0;         // max |q* - s|

    OneSolve(const SimModel& m, const SolverSettings& settings) : model(m) {
        PdReference cpu(model);
        cpu.step(settings);
        direct.assign(cpu.positions().begin(), cpu.positions().end());
        const double h = double(settings.timeStep) / settings.substeps;
        for (uint32_t r = 0; r < model.pd.particleCount; ++r) {
            const uint32_t i = model.pd.firstParticle + r;
            if (model.positions[i].w == 0.0f) continue;
            const glm::dvec3 v = glm::dvec3(glm::vec3(model.velocities[i])) + h * glm::dvec3(settings.gravity);
            const glm::dvec3 s = glm::dvec3(glm::vec3(model.positions[i])) + h * v;
            correction = std::max(correction, glm::length(direct[i] - s));
        }
    }
    SolveError error(PdGpuRun& gpu, uint32_t jacobi) {
        gpu.reset();
        gpu.settings().pd.jacobiIterations = jacobi;
        gpu.frames(1);
        const double d = maxDistance(gpu.positions(), direct, model.pd.firstParticle, model.pd.particleCount);
        return {d / correction, d};
    }
};

SimModel deformedModel(const Scene& scene) {
    SimModel model = buildModel(scene);
    glm::dvec3 centre(0.0);
    for (uint32_t r = 0; r < model.pd.particleCount; ++r)
        centre += glm::dvec3(glm::vec3(model.positions[model.pd.firstParticle + r]));
    centre /= double(model.pd.particleCount);
    for (uint32_t r = 0; r < model.pd.particleCount; ++r) {
        glm::vec4& x = model.positions[model.pd.firstParticle + r];
        const glm::dvec3 noise(hashUnit(r, 1), hashUnit(r, 2), hashUnit(r, 3));
        x = glm::vec4(glm::vec3(centre + 1.1 * (glm::dvec3(glm::vec3(x)) - centre) + 0.01 * noise), x.w);
    }
    return model;
}

SolverSettings oneSolveSettings(const Scene& scene) {
    SolverSettings settings = scene.solver;
    settings.substeps = 1;
    settings.pd.localIterations = 1;
    return settings;
}

// docs/physics.md §5: the Jacobi iterations with Chebyshev acceleration converge to
// the direct solve's fixed point. Bound 1e-4 of the correction (an order of
// magnitude above the float floor); measured: see the printed table.
TEST_F(PdGpu, OneGlobalSolveConvergesToTheDirectSolve) {
    for (const Scene& scene : {pdBarScene(), pdClothScene()}) {
        const SimModel model = deformedModel(scene);
        const SolverSettings settings = oneSolveSettings(scene);
        OneSolve solve(model, settings);
        PdGpuRun gpu(ctx(), model, settings, 400);
        const PdSolver::JacobiParameters jacobi = gpu.solver().jacobiParameters(settings);
        std::cout << fmt::format("[pd one solve] {} ({} particles, gamma {:.3f}, rho {:.4f}, correction {:.3e} m):",
                                 scene.name, model.pd.particleCount, jacobi.gamma, jacobi.rho, solve.correction);
        SolveError last;
        for (uint32_t J : {10u, 25u, 50u, 100u, 200u, 400u}) {
            last = solve.error(gpu, J);
            std::cout << fmt::format(" J={} {:.2e}", J, last.relative);
        }
        std::cout << "\n";
        EXPECT_LT(last.relative, 1e-4) << scene.name;
    }
}

// Iterations to bring the global solve within `threshold` (relative error
// against the direct solve) with Chebyshev and with plain Jacobi; a
// geometric search, then bisection (the error falls monotonically here).
uint32_t iterationsToReach(OneSolve& solve, PdGpuRun& gpu, double threshold, uint32_t maxIterations) {
    uint32_t below = 0, above = 1;
    while (above <= maxIterations && solve.error(gpu, above).relative > threshold) {
        below = above;
        above = std::max(above + 1, above * 3 / 2);
    }
    if (above > maxIterations) return UINT32_MAX;
    while (above - below > 1) {
        const uint32_t mid = (above + below) / 2;
        if (solve.error(gpu, mid).relative > threshold) below = mid;
        else above = mid;
    }
    return above;
}

// Wang 2015: Chebyshev needs markedly fewer iterations than Jacobi. With the
// spectral radius of the Jacobi iteration rho, the error falls per
// iteration by rho (plain Jacobi, gamma 1) and by about
// (1 - sqrt(1 - rho^2)) / rho with Chebyshev (with the relaxation that
// centres the spectrum): for rho 0.98 a ratio of about 6, for rho 0.99 about
// 9. Required: at least 3x.
TEST_F(PdGpu, ChebyshevNeedsMarkedlyFewerIterationsThanJacobi) {
    const double threshold = 1e-3;
    for (const Scene& scene : {pdBarScene(), pdClothScene()}) {
        const SimModel model = deformedModel(scene);
        SolverSettings settings = oneSolveSettings(scene);
        OneSolve solve(model, settings);
        PdGpuRun gpu(ctx(), model, settings, 2000);
        settings.pd.chebyshev = false;
        settings.pd.relaxation = 1.0f;
        gpu.settings() = settings;
        const uint32_t jacobi = iterationsToReach(solve, gpu, threshold, 2000);
        const double rhoJacobi = gpu.solver().jacobiParameters(settings).rho;
        settings.pd.chebyshev = true;
        settings.pd.relaxation = 0.0f;  // auto
        gpu.settings() = settings;
        const PdSolver::JacobiParameters auto_ = gpu.solver().jacobiParameters(settings);
        const uint32_t chebyshev = iterationsToReach(solve, gpu, threshold, 2000);
        const double ratio = double(jacobi) / double(chebyshev);
        std::cout << fmt::format("[pd chebyshev] {}: iterations to a relative error of {:.0e}: Jacobi {} (rho {:.4f}), "
                                 "Chebyshev {} (gamma {:.3f}, rho {:.4f}): {:.1f}x fewer\n",
                                 scene.name, threshold, jacobi, rhoJacobi, chebyshev, auto_.gamma, auto_.rho, ratio);
        EXPECT_NE(chebyshev, UINT32_MAX);
        EXPECT_GE(ratio, 3.0) << scene.name;
    }
}

// Whole frames: with J large enough for each global step to converge, the
// GPU follows the CPU reference with the direct solve. Differences are float
// rounding plus the remaining Jacobi error, fed through a nonlinear (but
// damped) system: bound 1 mm. With contacts (a ball landing on a sphere
// off-centre and sliding off), a particle at the edge of the contact set can
// be active in one solver and not the other, and the difference grows while
// the ball slides: bound 5 mm over 30 frames.
TEST_F(PdGpu, WholeStepsMatchTheDirectSolveReference) {
    struct Case {
        Scene scene;
        uint32_t frames;
        double bound;
    };
    Scene ball = pdBallScene(0.25f, {0.1f, 1.4f, 0.0f});
    {
        ball.name = "ball on sphere";
        ColliderDesc sphere;
        sphere.name = "sphere";
        sphere.shape = ColliderShape::Sphere;
        sphere.position = {0.0f, 0.5f, 0.0f};
        sphere.radius = 0.5f;
        sphere.friction = 0.3f;
        ball.colliders.push_back(sphere);
    }
    for (const Case& c : {Case{pdBarScene(), 30, 1e-3}, Case{pdClothScene(), 30, 1e-3}, Case{ball, 30, 5e-3}}) {
        const SimModel model = buildModel(c.scene);
        SolverSettings settings = c.scene.solver;
        settings.pd.localIterations = 5;
        settings.pd.jacobiIterations = 150;
        PdGpuRun gpu(ctx(), model, settings);
        PdReference cpu(model);
        double worst = 0.0;
        for (uint32_t f = 1; f <= c.frames; ++f) {
            gpu.frames(1);
            cpu.step(settings);
            const double d = maxDistance(gpu.positions(), cpu.positions(), model.pd.firstParticle,
                                         model.pd.particleCount);
            worst = std::max(worst, d);
            if (f % 10 == 0)
                std::cout << fmt::format("[pd gpu vs direct] {} frame {:>2}: max {:.3e} m\n", c.scene.name, f, d);
        }
        EXPECT_LT(worst, c.bound) << c.scene.name;
    }
}

// A bar pinned at one end comes to rest (implicit Euler dissipates), and its
// tip deflection at rest converges to the direct solve's as J grows.
TEST_F(PdGpu, PinnedBarReachesEquilibriumAndConvergesWithJ) {
    const Scene scene = pdBarScene();
    const SimModel model = buildModel(scene);
    SolverSettings settings = scene.solver;
    settings.pd.localIterations = 4;
    const uint32_t frames = 300;
    auto tipOf = [&](auto positions) {
        double tip = 0.0;
        for (uint32_t i = 0; i < model.particleCount(); ++i)
            if (model.positions[i].x > 0.59f) tip = std::min(tip, positions[i] - double(model.positions[i].y));
        return tip;
    };
    PdReference cpu(model);
    for (uint32_t f = 0; f < frames; ++f) cpu.step(settings);
    std::vector<double> tipCpu;
    for (const glm::dvec3& x : cpu.positions()) tipCpu.push_back(x.y);
    const double direct = tipOf(tipCpu);

    PdGpuRun gpu(ctx(), model, settings, 40);
    double previousError = 1e9, speed = 0.0;
    for (uint32_t J : {5u, 10u, 20u, 40u}) {
        gpu.reset();
        gpu.settings().pd.jacobiIterations = J;
        gpu.frames(frames);
        const std::vector<glm::vec4> x = gpu.positions();
        std::vector<double> ys;
        for (const glm::vec4& p : x) ys.push_back(p.y);
        const double tip = tipOf(ys);
        speed = 0.0;
        for (const glm::vec4& v : gpu.velocities()) speed = std::max(speed, double(glm::length(glm::vec3(v))));
        const double error = std::abs(tip - direct);
        std::cout << fmt::format("[pd bar] J={:>2}: tip deflection {:.5f} m (direct solve {:.5f}, difference "
                                 "{:.2e}), max speed {:.2e} m/s after {} frames\n",
                                 J, tip, direct, error, speed, frames);
        EXPECT_LT(error, previousError) << "J=" << J;
        previousError = error;
    }
    EXPECT_LT(speed, 2e-3);
    EXPECT_LT(previousError, 2e-3 * std::abs(direct) + 1e-5);
}

// A soft ball dropped on the ground (as the CPU reference's test): never
// inside it, and after 2 s resting on it.
TEST_F(PdGpu, BallSettlesOnTheGround) {
    Scene scene = pdBallScene(0.3f, {0.0f, 0.6f, 0.0f});
    ColliderDesc ground;
    ground.name = "ground";
    ground.friction = 0.5f;
    scene.colliders.push_back(ground);
    const SimModel model = buildModel(scene);
    PdGpuRun gpu(ctx(), model, scene.solver);
    double deepest = 1e9;
    for (uint32_t f = 0; f < 120; ++f) {
        gpu.frames(1);
        for (const glm::vec4& x : gpu.positions()) deepest = std::min(deepest, double(x.y));
    }
    glm::dvec3 centre(0.0), velocity(0.0);
    const std::vector<glm::vec4> x = gpu.positions(), v = gpu.velocities();
    for (uint32_t i = 0; i < model.particleCount(); ++i) {
        centre += glm::dvec3(glm::vec3(x[i])) / double(model.particleCount());
        velocity += glm::dvec3(glm::vec3(v[i])) / double(model.particleCount());
    }
    std::cout << fmt::format("[pd ball] deepest {:.2e} m over 120 frames; after 2 s centre height {:.4f} m (radius "
                             "0.3), mean vertical velocity {:.2e} m/s\n",
                             deepest, centre.y, velocity.y);
    EXPECT_GT(deepest, -1e-5);
    EXPECT_NEAR(centre.y, 0.3, 0.015);
    EXPECT_LT(std::abs(velocity.y), 0.02);
}

// No atomics, fixed gather order: two runs give bit-identical states.
TEST_F(PdGpu, DeterministicAcrossRuns) {
    Scene scene = pdClothScene();
    ColliderDesc sphere;
    sphere.name = "sphere";
    sphere.shape = ColliderShape::Sphere;
    sphere.position = {0.2f, 0.4f, 0.0f};
    sphere.radius = 0.4f;
    scene.colliders.push_back(sphere);
    const SimModel model = buildModel(scene);
    uint64_t hashes[2] = {};
    for (uint64_t& hash : hashes) {
        PdGpuRun gpu(ctx(), model, scene.solver);
        gpu.frames(20);
        hash = hashPositions(gpu.positions());
    }
    std::cout << fmt::format("[pd determinism] state hashes {} {}\n", formatHash(hashes[0]), formatHash(hashes[1]));
    EXPECT_EQ(hashes[0], hashes[1]);
}

}  // namespace
}  // namespace vksim::test
