// The mass-spring CPU reference (solvers/springs/spring_reference.h) on small
// hand-made grid cloths (spring_test_models.h): momentum conservation under
// internal forces, and the implicit solvers (docs/physics.md §9.3, §9.6):
// Newton's quadratic convergence, vertex block descent's monotone descent
// to the same minimiser.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "../spring_test_models.h"
#include "solvers/springs/spring_settings.h"
#include "solvers/springs/spring_reference.h"

namespace vksim {
namespace {

using glm::dvec3;

// A deterministic value in [-1, 1].
double hashUnit(uint32_t i, uint32_t salt) {
    uint32_t x = i * 747796405u + salt * 2891336453u + 1u;
    x ^= x >> 16;
    x *= 2246822519u;
    x ^= x >> 13;
    x *= 3266489917u;
    x ^= x >> 16;
    return double(x) / 2147483647.5 - 1.0;
}

// A 4 x 4 grid, deformed and moving: every particle displaced by up to
// 1 cm and given a random velocity of up to 0.5 m/s (non-zero mean).
SimModel freeCloth(float hinge, float quadratic) {
    test::GridParams grid;
    grid.hinge = hinge;
    grid.quadratic = quadratic;
    test::SpringTestSystem system = test::gridSystem(grid);
    for (uint32_t i = 0; i < system.particles.size(); ++i) {
        system.particles[i].position += 0.01f * glm::vec3(hashUnit(i, 1), hashUnit(i, 2), hashUnit(i, 3));
        system.particles[i].velocity = 0.5f * glm::vec3(hashUnit(i, 4), hashUnit(i, 5), hashUnit(i, 6));
    }
    return test::makeSpringModel(system);
}

// Internal forces are translation invariant: each spring's two ends get
// exactly opposite forces, Bridson's four hinge forces sum to zero, and Q's
// rows sum to zero; so sum m v is conserved up to the rounding of the sums
// (~1e-16 per force). Implicit Euler keeps it too, at every Newton
// iterate: summing the rows of (M/h^2 + H) dx = -grad F over particles
// gives sum m (x + dx - y) = 0, since H's block rows sum to zero. Angular
// momentum: symplectic Euler gives L_{n+1} = sum m x_n x v_{n+1} = L_n + h
// sum x_n x f(x_n) = L_n, as every force here is rotation invariant;
// velocity Verlet likewise (two half kicks around a drift). Position
// Verlet's central-difference velocity, midpoint, explicit and implicit
// Euler do not conserve it (printed, not checked). The
// tolerances are 1e-12 of sum m |v| (sum m |x| |v|): rounding, ~1e-15 per
// step over 200 steps, with margin.
TEST(SpringReference, MomentumOfAFreeCloth) {
    for (SpringIntegrator integrator :
         {SpringIntegrator::ExplicitEuler, SpringIntegrator::SymplecticEuler, SpringIntegrator::PositionVerlet,
          SpringIntegrator::VelocityVerlet, SpringIntegrator::Midpoint, SpringIntegrator::ImplicitEuler}) {
        const bool implicit = integrator == SpringIntegrator::ImplicitEuler;
        // Dihedral hinges only for the explicit integrators (no energy, §9.5).
        SpringReference solver(freeCloth(implicit ? 0.0f : 0.05f, 2.0f));
        SolverSettings settings;
        settings.timeStep = 2e-4f;  // the stiffest mode has omega h ~ 0.15: bounded growth for explicit Euler
        settings.substeps = 1;
        settings.gravity = glm::vec3(0.0f);
        settings.springs.integrator = integrator;
        settings.springs.newtonIterations = 2;
        const dvec3 p0 = solver.linearMomentum(), L0 = solver.angularMomentum();
        double scaleP = 0.0, scaleL = 0.0, driftP = 0.0, driftL = 0.0;
        for (uint32_t n = 0; n < 200; ++n) {
            solver.step(settings);
            for (uint32_t i = 0; i < solver.particleCount(); ++i) {
                const double m = 1.0 / solver.inverseMasses()[i];
                scaleP = std::max(scaleP, m * glm::length(solver.velocities()[i]));
                scaleL = std::max(scaleL, m * glm::length(solver.positions()[i]) * glm::length(solver.velocities()[i]));
            }
            driftP = std::max(driftP, glm::length(solver.linearMomentum() - p0));
            driftL = std::max(driftL, glm::length(solver.angularMomentum() - L0));
        }
        scaleP *= solver.particleCount();
        scaleL *= solver.particleCount();
        std::cout << fmt::format("[springs] free cloth, {:16s} 200 steps: |p - p0| {:.2e} of {:.2e}; |L - L0| {:.2e} of "
                                 "{:.2e}\n",
                                 springIntegratorName(integrator), driftP, scaleP, driftL, scaleL);
        EXPECT_LT(driftP, 1e-12 * scaleP);
        if (integrator == SpringIntegrator::SymplecticEuler || integrator == SpringIntegrator::VelocityVerlet) {
            EXPECT_LT(driftL, 1e-12 * scaleL);
        }
    }
}

// A 6 x 6 cloth pinned at two corners, stretched 10% with noise: one
// implicit step of h = 1/60 s from rest with gravity. Every spring stays
// stretched at the minimiser, so the clamp is inactive near it and Newton
// converges quadratically.
struct ImplicitProblem {
    SimModel model;
    std::vector<dvec3> y, x0;
    double h = 1.0 / 60.0;
};

ImplicitProblem stretchedCloth() {
    test::GridParams grid;
    grid.nx = grid.nz = 6;
    grid.quadratic = 0.5f;
    test::SpringTestSystem system = test::gridSystem(grid);
    for (uint32_t i = 0; i < system.particles.size(); ++i)
        system.particles[i].position =
            1.1f * system.particles[i].position + 0.002f * glm::vec3(hashUnit(i, 7), hashUnit(i, 8), hashUnit(i, 9));
    system.particles[0].mass = 0.0f;
    system.particles[grid.nx - 1].mass = 0.0f;
    ImplicitProblem problem;
    problem.model = test::makeSpringModel(system);
    const dvec3 g(0.0, -9.81, 0.0);
    for (uint32_t i = 0; i < problem.model.particleCount(); ++i) {
        const glm::vec4 x = problem.model.positions[i];
        problem.x0.emplace_back(glm::vec3(x));
        problem.y.push_back(problem.x0.back() + (x.w > 0.0f ? problem.h * problem.h * g : dvec3(0.0)));
    }
    return problem;
}

TEST(SpringReference, NewtonConvergesQuadratically) {
    const ImplicitProblem problem = stretchedCloth();
    SpringReference solver(problem.model);
    std::vector<ImplicitIterate> history;
    solver.newton(problem.y, problem.x0, problem.h, 0, true, false, &history);
    std::string line = "[springs] Newton |grad F|:";
    for (const ImplicitIterate& it : history) line += fmt::format(" {:.3e}", it.gradientNorm);
    std::cout << line << "\n";
    ASSERT_GE(history.size(), 3u);
    EXPECT_LT(history.back().gradientNorm, solver.options().newtonTolerance);
    // Quadratic: once |grad F| is below 1/10 of its start and above the
    // rounding floor (~1e-10 here: forces of ~10 N summed at 1e-16), the
    // contraction |g_{k+1}|/|g_k| itself shrinks (superlinear) and
    // |g_{k+1}|/|g_k|^2 stays bounded (within 100x of its first value:
    // the constant is the Hessian's Lipschitz bound over its inverse's).
    const double g0 = history.front().gradientNorm;
    double C = -1.0, contraction = 1.0;
    uint32_t checked = 0;
    for (size_t k = 0; k + 1 < history.size(); ++k) {
        const double a = history[k].gradientNorm, b = history[k + 1].gradientNorm;
        if (a > 0.1 * g0 || b < 1e-10) continue;
        const double ratio = b / (a * a);
        std::cout << fmt::format("[springs]   |g_k| = {:.3e}: |g_(k+1)|/|g_k| = {:.3e}, |g_(k+1)|/|g_k|^2 = {:.3e}\n", a,
                                 b / a, ratio);
        if (C < 0.0) C = ratio;
        EXPECT_LT(ratio, 100.0 * C);
        EXPECT_LT(b / a, contraction);
        contraction = b / a;
        ++checked;
    }
    EXPECT_GE(checked, 2u);
    // F decreases at every iterate, up to its rounding (1e-16 of its terms).
    for (size_t k = 0; k + 1 < history.size(); ++k)
        EXPECT_LE(history[k + 1].objective, history[k].objective + 1e-14 * history[k].objective);
}

// VBD lowers F at every sweep (each block step minimises a convex local
// model of F dominated by m/h^2) and reaches Newton's minimiser.
TEST(SpringReference, VertexBlockDescentConvergesToNewton) {
    const ImplicitProblem problem = stretchedCloth();
    SpringReference solver(problem.model);
    const std::vector<dvec3> newton = solver.newton(problem.y, problem.x0, problem.h, 0, true, false);
    std::vector<ImplicitIterate> history;
    const uint32_t sweeps = 300;
    const std::vector<dvec3> vbd = solver.vertexBlockDescent(problem.y, problem.x0, problem.h, sweeps, &history);
    const double Fstar = solver.objective(newton, problem.y, problem.x0, problem.h);
    std::string line = "[springs] VBD F - F*:";
    for (uint32_t k : {0u, 1u, 2u, 5u, 10u, 20u, 50u, 100u, 200u, 300u})
        line += fmt::format(" [{}] {:.3e}", k, history[k].objective - Fstar);
    double distance = 0.0;
    for (uint32_t i = 0; i < vbd.size(); ++i) distance = std::max(distance, glm::length(vbd[i] - newton[i]));
    std::cout << line << fmt::format("\n[springs] VBD after {} sweeps: max |x - x_newton| = {:.3e} m, |grad F| {:.3e}\n",
                                     sweeps, distance, history.back().gradientNorm);
    // Monotone, up to the rounding of F (~1e-16 of its terms).
    for (size_t k = 0; k + 1 < history.size(); ++k)
        EXPECT_LE(history[k + 1].objective, history[k].objective + 1e-13 * std::abs(history[k].objective));
    EXPECT_LT(distance, 1e-8);
}

// grad F is the derivative of F: central differences along a random
// direction (error O(e^2) ~ 1e-10 relative).
TEST(SpringReference, GradientIsTheDerivativeOfTheObjective) {
    ImplicitProblem problem = stretchedCloth();
    SpringReference solver(problem.model);
    std::vector<dvec3> x = problem.y, direction(x.size());
    for (uint32_t i = 0; i < x.size(); ++i) {
        x[i] += 0.01 * dvec3(hashUnit(i, 10), hashUnit(i, 11), hashUnit(i, 12));
        if (solver.inverseMasses()[i] > 0.0) direction[i] = dvec3(hashUnit(i, 13), hashUnit(i, 14), hashUnit(i, 15));
    }
    const double e = 1e-6;
    std::vector<dvec3> plus = x, minus = x;
    for (uint32_t i = 0; i < x.size(); ++i) {
        plus[i] += e * direction[i];
        minus[i] -= e * direction[i];
    }
    const double numeric = (solver.objective(plus, problem.y, problem.x0, problem.h) -
                            solver.objective(minus, problem.y, problem.x0, problem.h)) /
                           (2.0 * e);
    double analytic = 0.0;
    const std::vector<dvec3> g = solver.gradient(x, problem.y, problem.x0, problem.h);
    for (uint32_t i = 0; i < x.size(); ++i) analytic += glm::dot(g[i], direction[i]);
    std::cout << fmt::format("[springs] dF along a direction: analytic {:.9e}, central difference {:.9e}\n", analytic,
                             numeric);
    EXPECT_NEAR(numeric / analytic, 1.0, 1e-7);
}

}  // namespace
}  // namespace vksim
