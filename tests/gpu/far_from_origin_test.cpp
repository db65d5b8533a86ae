// Float32 positions far from the world origin (docs/physics.md §9.2, "Far
// from the origin"): near |x| = 1000 m a position is rounded to
// ulp(1000) = 2^-14 m = 6.1e-5 m. Every solver's predicted positions are
// relative to its origin (solvers/solver_origin.h), and none rebuilds its
// velocity from rounded positions: the explicit mass-spring integrators
// integrate their velocity (x += h v), position Verlet its drift velocity,
// and the position-based update adds to the velocity only what the solve
// moved. Every test runs the same motion at the origin and 1 km away and
// prints both errors.
#include <cfloat>
#include <cmath>
#include <iostream>
#include <numbers>
#include <vector>

#include <fmt/format.h>

#include "../spring_test_models.h"
#include "gpu_harness.h"
#include "solvers/springs/spring_settings.h"
#include "solvers/model_builder.h"
#include "solvers/solver_origin.h"

namespace vksim::test {
namespace {

class FarFromOrigin : public GpuTest {};

// The distance from |x| to the next float, the spacing positions there are rounded to.
double ulpAt(double x) {
    const float f = static_cast<float>(std::abs(x));
    return double(std::nextafter(f, FLT_MAX)) - double(f);
}

// One spring along z: particle 0 pinned at z0 - L/2, particle 1 (mass m) at
// z0 + L/2, rest length L, moving along the spring from rest length with
// speed A omega: u = z1 - z0 - L/2 follows A sin(omega t). T = 1 s.
struct SpringOscillator {
    double z0 = 0.0;
    float restLength = 0.5f;
    float amplitude = 0.1f;  // [m]: 1640 ulps at 1 km
    float mass = 1.0f;
    float stiffness = float(4.0 * std::numbers::pi * std::numbers::pi);  // omega = 2 pi
    double omega() const { return std::sqrt(double(stiffness) / double(mass)); }

    SimModel model() const {
        SpringTestSystem system;
        const float pinned = float(z0 - 0.5 * restLength), free = float(z0 + 0.5 * restLength);
        system.particles.push_back({glm::vec3(0.0f, 0.0f, pinned), 0.0f});
        system.particles.push_back(
            {glm::vec3(0.0f, 0.0f, free), mass, glm::vec3(0.0f, 0.0f, float(amplitude * omega()))});
        system.springs.push_back(testSpring(0, 1, free - pinned, stiffness));
        return makeSpringModel(system);
    }
};

// The angle per step of each explicit integrator's amplification matrix on
// the state (omega u, v), q = omega h (docs/physics.md §9.2): its discrete
// period is 2 pi h / angle, exactly, whatever h.
double discreteAngle(SpringIntegrator integrator, double q) {
    switch (integrator) {
    case SpringIntegrator::ExplicitEuler: return std::atan(q);                  // 1 + i q
    case SpringIntegrator::ImplicitEuler:
    case SpringIntegrator::Vbd: return std::atan(q);  // 1/(1 - i q)
    case SpringIntegrator::Midpoint: return std::atan2(q, 1.0 - 0.5 * q * q);  // 1 - q^2/2 + i q
    default: return std::acos(1.0 - 0.5 * q * q);  // symplectic Euler, velocity Verlet: lambda + 1/lambda = 2 - q^2
    }
}

struct PeriodResult {
    double period = 0.0;  // [s]
    uint32_t periods = 0;
};

// Upward zero crossings of u, sampled once a frame and linearly
// interpolated, averaged over the whole run.
PeriodResult measurePeriod(VulkanContext& ctx, const SpringOscillator& o, const SolverSettings& settings,
                           uint32_t frames) {
    const SimModel model = o.model();
    GpuRun run(ctx, model, settings);
    const double rest = double(model.positions[1].z) - double(model.positions[0].z);
    const double H = settings.timeStep;
    std::vector<double> crossings;
    double previous = 0.0;
    for (uint32_t f = 1; f <= frames; ++f) {
        run.frames(1);
        const std::vector<glm::vec4> x = run.positions();
        const double u = double(x[1].z) - double(x[0].z) - rest;
        if (previous < 0.0 && u >= 0.0) crossings.push_back((f - 1 + previous / (previous - u)) * H);
        previous = u;
    }
    if (crossings.size() < 2) return {};
    return {(crossings.back() - crossings.front()) / double(crossings.size() - 1),
            uint32_t(crossings.size() - 1)};
}

// docs/physics.md §9.2: every mass-spring integrator gives the period of
// its discrete recurrence at 1 km as at the origin, up to the rounding of
// the positions, which does not reach the velocity. The explicit ones keep
// their velocity (position Verlet its drift velocity); implicit Euler and
// vertex block descent solve for p relative to the solver's origin O, so
// what the solve moves carries only the rounding of p - O into the
// velocity: ulp(|x - O|) = 3e-8 m at the origin (O = 0) and 4.8e-7 m at
// 1 km (O = 1008 m), instead of 6.1e-5 m.
// (One VBD sweep solves this linear one-particle problem exactly, and two
// Newton iterations of ten relaxed Jacobi iterations each to float
// precision: both follow the implicit Euler recurrence.)
//
// The tolerance, relative to the discrete period, is the sum of
//  - the crossing interpolation: a sine's linear interpolation between
//    samples a and b either side of its zero misplaces it by a b (b - a)
//    omega^2 / 6 <= 0.1 H^3 omega^2 / 6 (H = 1/60 s a frame, a + b = H):
//    2.8e-6 s at each end of the run, 1.9e-6 of the period over 3 periods;
//  - the positions' rounding, at most ulp/2 a substep, modelled as
//    independent and uniform (standard deviation ulp/sqrt(12)): each is a
//    phase kick of at most that over A, so over N substeps the phase at the
//    last crossing wanders by sqrt(N) ulp/(sqrt(12) A) (one sigma); four of
//    those over the 2 pi P radians of P periods. At the origin (ulp(0.25) =
//    3e-8 m) 6.2e-7; at 1 km (ulp 6.1e-5 m) 1.0e-3;
//  - for implicit Euler and VBD, the rounding of p - O, which enters the
//    velocity: the same kicks 1/(omega h) = 38 times larger, at
//    ulp(|x - O|): 1.9e-5 at the origin, 5.9e-4 at 1 km.
// Rebuilding v = (p - x)/h from world positions instead puts ulp(|x|) into
// the velocity: 8e-3 at 1 km for the explicit integrators (float32
// simulation of both rules), and 3.7e-2 measured for implicit Euler and VBD
// before they iterated relative to the origin, far above either bound.
TEST_F(FarFromOrigin, SpringIntegratorsKeepTheirPeriodAtOneKilometre) {
    SolverSettings settings;
    settings.timeStep = 1.0f / 60.0f;
    settings.substeps = 4;
    settings.gravity = glm::vec3(0.0f);
    settings.damping = 0.0f;
    settings.springs.newtonIterations = 2;
    settings.springs.jacobiIterations = 10;
    settings.springs.lineSearch = false;
    settings.springs.vbdIterations = 1;
    const uint32_t frames = 250;  // 4 upward crossings (3 periods of 1 s) and a bit
    const double h = double(settings.timeStep) / settings.substeps;
    for (SpringIntegrator integrator : {SpringIntegrator::ExplicitEuler, SpringIntegrator::SymplecticEuler,
                                        SpringIntegrator::PositionVerlet, SpringIntegrator::VelocityVerlet,
                                        SpringIntegrator::Midpoint, SpringIntegrator::ImplicitEuler,
                                        SpringIntegrator::Vbd}) {
        settings.springs.integrator = integrator;
        const bool solvesForPositions =
            integrator == SpringIntegrator::ImplicitEuler || integrator == SpringIntegrator::Vbd;
        for (const double z0 : {0.0, 1000.0}) {
            SpringOscillator o;
            o.z0 = z0;
            const PeriodResult measured = measurePeriod(ctx(), o, settings, frames);
            ASSERT_EQ(measured.periods, 3u) << springIntegratorName(integrator) << " at z = " << z0;
            const double q = o.omega() * h;
            const double discrete = 2.0 * std::numbers::pi * h / discreteAngle(integrator, q);
            const double exact = 2.0 * std::numbers::pi / o.omega();
            const double steps = measured.periods * measured.period / h;
            const double phaseWander = 4.0 * std::sqrt(steps) / (std::sqrt(12.0) * o.amplitude) /
                                       (2.0 * std::numbers::pi * measured.periods);
            const double interpolation = 2.0 * 0.1 * std::pow(double(settings.timeStep), 3) * o.omega() * o.omega() /
                                         6.0 / (measured.periods * discrete);
            double rounding = phaseWander * ulpAt(z0 + 0.5 * o.restLength + o.amplitude);
            const SimModel model = o.model();
            const double origin = solverOrigin(model.positions, {0, model.particleCount()}).z;
            const double relative = std::max(std::abs(z0 - 0.5 * o.restLength - origin),
                                             std::abs(z0 + 0.5 * o.restLength + o.amplitude - origin));
            if (solvesForPositions) rounding += phaseWander * ulpAt(relative) / q;
            const double error = measured.period / discrete - 1.0;
            std::cout << fmt::format("[far from origin] {:<20} z = {:6.0f} m: period {:.7f} s, discrete {:.7f} s: "
                                     "error {:+.2e} (bound {:.2e}); against 2 pi/omega {:+.2e} (scheme's own "
                                     "{:+.2e})\n",
                                     springIntegratorName(integrator), z0, measured.period, discrete, error,
                                     interpolation + rounding, measured.period / exact - 1.0, discrete / exact - 1.0);
            EXPECT_LT(std::abs(error), interpolation + rounding) << springIntegratorName(integrator) << " at z = " << z0;
        }
    }
}

// The solvers whose unknowns are positions: a cloth at its rest shape
// falling freely 1 s (240 substeps), at y = 2 m and at y = 1 km. Its
// particles follow symplectic Euler's closed form (free fall in
// docs/physics.md §4; no internal force acts on a rigidly translating rest
// shape, and position Verlet's first step starts from x - h v):
//   y_n = y0 + n h vy0 - g h^2 n (n + 1)/2.
// Each keeps the velocity predict drifted by where the solve moves nothing
// (positionBasedVelocity, which implicit Euler and VBD share with PBD and
// PD; position Verlet its drift velocity), so a position is
// rounded once a substep (u |x| with u = 2^-24) and a velocity once (u |v|),
// which later substeps carry: the bound is
//   u (n max|x| + h (max|v| + h g)(n^2/2 + 2n)),
// 1.4e-2 m at 1 km. Rebuilding v = (p - x)/h from world positions put the
// rounding of p into the velocity every substep, u (max|x| + 3 h max|v|)
// (n^2/2 + n): up to 1.7 m at 1 km.
struct DifferencingSolver {
    const char* name;
    SolverMethod method;
    SpringIntegrator integrator;
};

TEST_F(FarFromOrigin, PositionSolversKeepFreeFallAtOneKilometre) {
    const DifferencingSolver solvers[] = {
        {"pbd", SolverMethod::Pbd, SpringIntegrator::SymplecticEuler},
        {"pd", SolverMethod::Pd, SpringIntegrator::SymplecticEuler},
        {"springs implicitEuler", SolverMethod::Springs, SpringIntegrator::ImplicitEuler},
        {"springs vbd", SolverMethod::Springs, SpringIntegrator::Vbd},
        {"springs positionVerlet", SolverMethod::Springs, SpringIntegrator::PositionVerlet},
    };
    for (const DifferencingSolver& solver : solvers) {
        double errors[2] = {0.0, 0.0};
        int which = 0;
        for (const float y0 : {2.0f, 1000.0f}) {
            Scene scene = clothScene({4, 4}, {0.5f, 0.5f}, y0);
            scene.cloths[0].method = solver.method;
            scene.cloths[0].initialVelocity = glm::vec3(0.0f, 3.0f, 0.0f);
            scene.solver.timeStep = 1.0f / 60.0f;
            scene.solver.substeps = 4;
            scene.solver.springs.integrator = solver.integrator;
            const SimModel model = buildModel(scene);
            GpuRun run(ctx(), model, scene.solver);
            const uint32_t frames = 60;
            run.frames(frames);
            const std::vector<glm::vec4> x = run.positions();
            const double h = double(scene.solver.timeStep) / scene.solver.substeps;
            const double n = frames * scene.solver.substeps;
            const double g = -double(scene.solver.gravity.y);
            const double v0 = scene.cloths[0].initialVelocity.y;
            double maxError = 0.0, maxCoordinate = 0.0;
            for (uint32_t i = 0; i < model.particleCount(); ++i) {
                const glm::dvec3 x0 = glm::dvec3(glm::vec3(model.positions[i]));
                const double y = x0.y + n * h * v0 - g * h * h * n * (n + 1) / 2;
                maxError = std::max(maxError, glm::length(glm::dvec3(glm::vec3(x[i])) - glm::dvec3(x0.x, y, x0.z)));
                for (double k = 0; k <= n; ++k)
                    maxCoordinate = std::max({maxCoordinate, std::abs(x0.x), std::abs(x0.z),
                                              std::abs(x0.y + k * h * v0 - g * h * h * k * (k + 1) / 2)});
            }
            const double maxSpeed = std::max(std::abs(v0), std::abs(v0 - g * n * h));
            const double bound =
                FLT_EPSILON / 2 * (n * maxCoordinate + h * (maxSpeed + h * g) * (n * n / 2 + 2 * n));
            std::cout << fmt::format("[far from origin] {:<22} free fall at y = {:6.0f} m, {} substeps: max |x - "
                                     "closed form| = {:.3e} m (bound {:.3e} m)\n",
                                     solver.name, y0, n, maxError, bound);
            EXPECT_LE(maxError, bound) << solver.name << " at y = " << y0;
            errors[which++] = maxError;
        }
        std::cout << fmt::format("[far from origin] {:<22} error at 1 km / error at 2 m = {:.0f}\n", solver.name,
                                 errors[1] / std::max(errors[0], 1e-30));
    }
}

// PBD and projective dynamics project world-placed constraints on their
// predicted positions, and every projection rounds them: relative to the
// solver's origin (solvers/solver_origin.h: the range's centroid rounded to
// 16 m, so 0 near the world origin) that rounding is ulp(|x - O|), a few
// metres' worth wherever the range is, instead of ulp(1000). A 0.5 m square
// plate of 2 x 2 particles hangs from its two upper corners and swings
// through 180 degrees from horizontal; its period at 1 km must match the
// one at 1 m.
//
// The bound counts what rounding can do: each of the k writes of an
// iterate per substep (PBD: its iterations; PD: its local times Jacobi
// iterations) rounds a position by up to ulp/2, which the position-based
// velocity turns into a kick of up to ulp/(2h); modelled as independent and
// uniform (standard deviation ulp/(sqrt(12) h)), over N substeps the phase
// wanders by sqrt(k N) ulp/(sqrt(12) h v_rms) radians (one sigma; v_rms
// the swing's root-mean-square speed); four of those, for both runs' ulps,
// over the 2 pi P radians of P periods. Measured on lavapipe: PBD 2.0e-4
// (bound 1.2e-3), PD 5.3e-4 (bound 6.2e-3); with world positions (O = 0 at
// 1 km) they were 2.1e-3 and 3.9e-2.
TEST_F(FarFromOrigin, PositionSolversKeepTheirPendulumPeriodAtOneKilometre) {
    for (const SolverMethod method : {SolverMethod::Pbd, SolverMethod::Pd}) {
        const char* name = method == SolverMethod::Pbd ? "pbd" : "pd";
        double periods[2] = {0.0, 0.0}, bound = 0.0;
        int which = 0;
        for (const float y0 : {1.0f, 1000.0f}) {
            Scene scene = clothScene({2, 2}, {0.5f, 0.5f}, y0);
            scene.cloths[0].method = method;
            scene.cloths[0].pinned = {{0, 0}, {1, 0}};
            scene.solver.timeStep = 1.0f / 60.0f;
            scene.solver.substeps = 4;
            const SimModel model = buildModel(scene);
            GpuRun run(ctx(), model, scene.solver);
            const glm::vec3 origin = solverOrigin(model.positions, {0, model.particleCount()});
            const double H = scene.solver.timeStep, h = H / scene.solver.substeps;
            std::vector<double> crossings;
            double previous = 0.0, squaredSpeeds = 0.0, furthest = 0.0;
            const uint32_t frames = 330;  // 3 or 4 upward crossings, at least 2 periods
            for (uint32_t f = 1; f <= frames; ++f) {
                run.frames(1);
                const std::vector<glm::vec4> x = run.positions();
                // The free edge's offset along z from the pinned edge.
                const double u = 0.5 * (double(x[2].z) + double(x[3].z)) - 0.5 * (double(x[0].z) + double(x[1].z));
                if (f > 1) squaredSpeeds += (u - previous) * (u - previous) / (H * H);
                if (previous < 0.0 && u >= 0.0) crossings.push_back((f - 1 + previous / (previous - u)) * H);
                previous = u;
                for (const glm::vec4& p : x) furthest = std::max(furthest, double(glm::length(glm::vec3(p) - origin)));
            }
            ASSERT_GE(crossings.size(), 3u) << name << " at y = " << y0;
            const double P = double(crossings.size() - 1);
            periods[which] = (crossings.back() - crossings.front()) / P;
            const double k = method == SolverMethod::Pbd
                                 ? double(scene.solver.pbd.iterations)
                                 : double(scene.solver.pd.localIterations) * scene.solver.pd.jacobiIterations;
            const double N = P * periods[which] / h, vRms = std::sqrt(squaredSpeeds / (frames - 1));
            bound += 4.0 * std::sqrt(k * N) * ulpAt(furthest) / (std::sqrt(12.0) * h * vRms) /
                     (2.0 * std::numbers::pi * P);
            ++which;
        }
        const double error = periods[1] / periods[0] - 1.0;
        std::cout << fmt::format("[far from origin] {} pendulum: period {:.7f} s at 1 m, {:.7f} s at 1 km: {:+.2e} "
                                 "(bound {:.2e})\n",
                                 name, periods[0], periods[1], error, bound);
        EXPECT_LT(std::abs(error), bound) << name;
    }
}

}  // namespace
}  // namespace vksim::test
