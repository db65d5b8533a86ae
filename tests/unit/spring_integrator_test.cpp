// The mass-spring integrators of the CPU reference (reference/
// spring_reference.h, docs/physics.md §9.2) on one spring, a harmonic
// oscillator with closed forms: the period, the energy over 10,000 steps
// and the stability limits.
//
// The oscillator: particle 0 pinned at the origin, particle 1 of mass m at
// distance L + A along x, stiffness k, no gravity. It moves along the
// spring's line, where the spring is linear: x'' = -omega^2 (x - L),
// omega = sqrt(k/m). With z = i omega h each integrator multiplies the
// state (omega (x - L), v) by a fixed matrix per step, and for all but the
// staggered ones that matrix is normal, so the energy follows a closed form:
//   explicit Euler   E_n = E_0 (1 + (omega h)^2)^n
//   midpoint         E_n = E_0 (1 + (omega h)^4 / 4)^n
//   implicit Euler   E_n = E_0 (1 + (omega h)^2)^-n
// Symplectic Euler and the two Verlets share x_{n+1} - 2 x_n + x_{n-1} =
// -(omega h)^2 x_n: stable for omega h < 2 with the discrete frequency
// cos(omega_d h) = 1 - (omega h)^2 / 2, so omega_d = omega (1 + (omega h)^2
// / 24 + O(h^4)): a period (omega h)^2/24 too short.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <numbers>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "../spring_test_models.h"
#include "solvers/springs/spring_settings.h"
#include "solvers/springs/spring_reference.h"

namespace vksim {
namespace {

// The period and energy tests use L = 1 m, A = 1/16 m: the position's
// rounding (1.1e-16 m per step, 1e-12 m over 10^4 steps even if it never
// cancels) stays below 1e-10 of the amplitude. The stability runs let the
// amplitude grow 100-fold, so they use L = 1000 m and A = 2^-10 m (exact
// next to 1000 in float).
struct Oscillator {
    float restLength = 1.0f;
    float amplitude = 1.0f / 16.0f;
    float mass = 1.0f;
    float stiffness = 100.0f;
    double omega() const { return std::sqrt(double(stiffness) / double(mass)); }
};

SimModel oscillatorModel(const Oscillator& o) {
    test::SpringTestSystem system;
    system.particles.push_back({glm::vec3(0.0f), 0.0f});
    system.particles.push_back({glm::vec3(o.restLength + o.amplitude, 0.0f, 0.0f), o.mass});
    system.springs.push_back(test::testSpring(0, 1, o.restLength, o.stiffness));
    return test::makeSpringModel(system);
}

// A step of h exactly (h is a float in the settings).
SolverSettings oscillatorSettings(SpringIntegrator integrator, float h) {
    SolverSettings settings;
    settings.timeStep = h;
    settings.substeps = 1;
    settings.gravity = glm::vec3(0.0f);
    settings.damping = 0.0f;
    settings.springs.integrator = integrator;
    settings.springs.newtonIterations = 2;  // the problem is quadratic along the line: one is exact
    settings.springs.vbdIterations = 1;     // one free vertex: one block step is exact
    return settings;
}

// The period from upward zero crossings of x - L, linearly interpolated
// (x'' = 0 at a crossing, so the interpolation error is O(h^3 omega^3)).
double measuredPeriod(SpringIntegrator integrator, const Oscillator& o, float h, uint32_t steps) {
    SpringReference solver(oscillatorModel(o));
    const SolverSettings settings = oscillatorSettings(integrator, h);
    std::vector<double> crossings;
    double previous = solver.positions()[1].x - o.restLength;
    for (uint32_t n = 1; n <= steps; ++n) {
        solver.step(settings);
        const double u = solver.positions()[1].x - o.restLength;
        if (previous < 0.0 && u >= 0.0) crossings.push_back((n - 1 + previous / (previous - u)) * double(h));
        previous = u;
    }
    if (crossings.size() < 2) return 0.0;
    return (crossings.back() - crossings.front()) / double(crossings.size() - 1);
}

TEST(SpringIntegrators, PeriodOfOneSpring) {
    const Oscillator o;
    const float h = 0.005f;  // omega h = 0.05
    const double wh = o.omega() * double(h), T = 2.0 * std::numbers::pi / o.omega();
    // All three follow x_{n+1} - 2 x_n + x_{n-1} = -(omega h)^2 x_n.
    const double discrete = 2.0 * std::numbers::pi * double(h) / std::acos(1.0 - 0.5 * wh * wh);
    for (SpringIntegrator integrator :
         {SpringIntegrator::SymplecticEuler, SpringIntegrator::PositionVerlet, SpringIntegrator::VelocityVerlet}) {
        const double period = measuredPeriod(integrator, o, h, uint32_t(20.0 * T / double(h)));
        const double error = period / T - 1.0;
        std::cout << fmt::format(
            "[springs] {:16s} omega h = {:.3f}: period {:.6f} s, 2 pi sqrt(m/k) = {:.6f} s, relative {:+.3e} "
            "(theory -(omega h)^2/24 = {:+.3e}); against the discrete period {:.2e}\n",
            springIntegratorName(integrator), wh, period, T, error, -wh * wh / 24.0, period / discrete - 1.0);
        // The phase error is O(h^2): within 1% of its leading term (the
        // next is O(h^4), 1e-3 of it here), and the discrete recurrence's
        // period to 1e-7 (crossing interpolation).
        EXPECT_NEAR(error, -wh * wh / 24.0, 0.01 * wh * wh / 24.0);
        EXPECT_NEAR(period / discrete, 1.0, 1e-7);
    }
}

// Energy E = m v^2/2 + k (l - L)^2/2 over 10,000 steps at omega h = 0.01.
TEST(SpringIntegrators, EnergyOverTenThousandSteps) {
    const Oscillator o;
    const float h = 0.001f;
    const double wh = o.omega() * double(h);
    const uint32_t steps = 10000;
    for (SpringIntegrator integrator :
         {SpringIntegrator::SymplecticEuler, SpringIntegrator::PositionVerlet, SpringIntegrator::VelocityVerlet,
          SpringIntegrator::ExplicitEuler, SpringIntegrator::Midpoint, SpringIntegrator::ImplicitEuler,
          SpringIntegrator::Vbd}) {
        SpringReference solver(oscillatorModel(o));
        const SolverSettings settings = oscillatorSettings(integrator, h);
        const double E0 = solver.mechanicalEnergy();
        double worst = 0.0, firstHalf = 0.0, secondHalf = 0.0;
        for (uint32_t n = 1; n <= steps; ++n) {
            solver.step(settings);
            const double deviation = std::abs(solver.mechanicalEnergy() / E0 - 1.0);
            worst = std::max(worst, deviation);
            (n <= steps / 2 ? firstHalf : secondHalf) = std::max(n <= steps / 2 ? firstHalf : secondHalf, deviation);
        }
        const double ratio = solver.mechanicalEnergy() / E0;
        std::string line = fmt::format("[springs] {:24s} omega h = {:.3f}, {} steps: E_N/E_0 = {:.9f}, max |E/E_0 - 1| "
                                       "{:.3e} (first half {:.3e}, second half {:.3e})",
                                       springIntegratorName(integrator), wh, steps, ratio, worst, firstHalf, secondHalf);
        // The symplectic ones conserve a modified energy exactly; the true
        // energy oscillates about it in a band that does not drift (the
        // second half stays within the first half's band, to 1%). Its width,
        // leading term plus 10%: symplectic Euler omega h/2 (x and v are half
        // a step apart); position Verlet omega h (its central-difference
        // velocity belongs to x_n, but is reported with x_{n+1}); velocity
        // Verlet (omega h)^2/4 (x and v at the same time).
        if (integrator == SpringIntegrator::SymplecticEuler) {
            EXPECT_LT(worst, 1.1 * 0.5 * wh);
            EXPECT_LT(secondHalf, 1.01 * firstHalf);
        } else if (integrator == SpringIntegrator::PositionVerlet) {
            EXPECT_LT(worst, 1.1 * wh);
            EXPECT_LT(secondHalf, 1.01 * firstHalf);
        } else if (integrator == SpringIntegrator::VelocityVerlet) {
            EXPECT_LT(worst, 1.1 * 0.25 * wh * wh);
            EXPECT_LT(secondHalf, 1.01 * firstHalf);
        } else {
            const double perStep = integrator == SpringIntegrator::ExplicitEuler ? 1.0 + wh * wh
                                   : integrator == SpringIntegrator::Midpoint    ? 1.0 + 0.25 * wh * wh * wh * wh
                                                                                 : 1.0 / (1.0 + wh * wh);
            const double expected = std::pow(perStep, double(steps));
            line += fmt::format(", closed form {:.9f}", expected);
            // Normal amplification matrices: exact but for rounding (see
            // Oscillator), 1e-10 of the energy.
            EXPECT_NEAR(ratio / expected, 1.0, 1e-8);
        }
        std::cout << line << "\n";
    }
}

// Unstable: the amplitude max |x - L| exceeds 100 times its start within
// 10,000 steps. (Below omega h = 2, symplectic Euler's amplitude peaks at
// A / sqrt(1 - (omega h/2)^2), which reaches 100 A only at omega h =
// 1.9999; above it the growth per step 1 + 2 sqrt(omega h - 2) passes 100
// in 10^4 steps from omega h = 2 + 5e-8. So the bisection brackets 2 to 1e-3.)
Oscillator longSpring() {
    Oscillator o;
    o.restLength = 1000.0f;
    o.amplitude = 1.0f / 1024.0f;
    return o;
}

bool unstable(SpringIntegrator integrator, double omegaH) {
    const Oscillator o = longSpring();
    const float h = float(omegaH / o.omega());
    SpringReference solver(oscillatorModel(o));
    const SolverSettings settings = oscillatorSettings(integrator, h);
    const double start = std::abs(solver.positions()[1].x - o.restLength);
    for (uint32_t n = 0; n < 10000; ++n) {
        solver.step(settings);
        const double u = std::abs(solver.positions()[1].x - o.restLength);
        if (!(u < 100.0 * start)) return true;
    }
    return false;
}

// Growth of the amplitude per step, from the energy after n steps (few
// enough that the amplitude stays between 1e-6 m and L).
double growthPerStep(SpringIntegrator integrator, double omegaH, uint32_t steps) {
    const Oscillator o;
    const float h = float(omegaH / o.omega());
    SpringReference solver(oscillatorModel(o));
    const SolverSettings settings = oscillatorSettings(integrator, h);
    const double E0 = solver.mechanicalEnergy();
    for (uint32_t n = 0; n < steps; ++n) solver.step(settings);
    return std::pow(solver.mechanicalEnergy() / E0, 0.5 / double(steps));
}

TEST(SpringIntegrators, StabilityTable) {
    std::string table = "[springs] stability of one spring, omega = sqrt(k/m):\n";
    for (SpringIntegrator integrator :
         {SpringIntegrator::SymplecticEuler, SpringIntegrator::PositionVerlet, SpringIntegrator::VelocityVerlet}) {
        double lo = 0.5, hi = 4.0;
        ASSERT_FALSE(unstable(integrator, lo));
        ASSERT_TRUE(unstable(integrator, hi));
        while (hi - lo > 1e-4) {
            const double mid = 0.5 * (lo + hi);
            (unstable(integrator, mid) ? hi : lo) = mid;
        }
        table += fmt::format("  {:24s} largest stable omega h = {:.4f} (theory 2)\n", springIntegratorName(integrator), lo);
        EXPECT_NEAR(lo, 2.0, 1e-3);
    }
    for (double wh : {0.1, 0.5, 1.0}) {
        const double ee = growthPerStep(SpringIntegrator::ExplicitEuler, wh, 10);
        const double mp = growthPerStep(SpringIntegrator::Midpoint, wh, 10);
        const double ie = growthPerStep(SpringIntegrator::ImplicitEuler, wh, 10);
        table += fmt::format(
            "  omega h = {:.1f}: growth per step explicit Euler {:.6f} (theory sqrt(1 + (wh)^2) = {:.6f}), midpoint "
            "{:.6f} (sqrt(1 + (wh)^4/4) = {:.6f}), implicit Euler {:.6f} (1/sqrt(1 + (wh)^2) = {:.6f})\n",
            wh, ee, std::sqrt(1.0 + wh * wh), mp, std::sqrt(1.0 + 0.25 * std::pow(wh, 4)), ie,
            1.0 / std::sqrt(1.0 + wh * wh));
        // h is rounded to float: omega h is off by up to 6e-8 relative,
        // which moves these by less than 1e-7.
        EXPECT_NEAR(ee, std::sqrt(1.0 + wh * wh), 1e-7);
        EXPECT_NEAR(mp, std::sqrt(1.0 + 0.25 * std::pow(wh, 4)), 1e-7);
        EXPECT_NEAR(ie, 1.0 / std::sqrt(1.0 + wh * wh), 1e-7);
    }
    // Implicit Euler and VBD (its one-vertex block step is the Newton step):
    // stable at any step.
    for (double wh : {10.0, 100.0, 1000.0}) {
        const bool newtonUnstable = unstable(SpringIntegrator::ImplicitEuler, wh);
        const bool vbdUnstable = unstable(SpringIntegrator::Vbd, wh);
        table += fmt::format("  omega h = {:6.0f}: implicit Euler {}, VBD {}\n", wh,
                             newtonUnstable ? "unstable" : "stable", vbdUnstable ? "unstable" : "stable");
        EXPECT_FALSE(newtonUnstable);
        EXPECT_FALSE(vbdUnstable);
    }
    std::cout << table;
}

}  // namespace
}  // namespace vksim
