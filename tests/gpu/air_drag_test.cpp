// Air drag f = -sigma v (the object's "drag" key) under every cloth solver
// against the closed form (docs/physics.md §1 and §9.2): a cloth moving at
// its rest shape with no gravity feels no internal force, so every particle's
// velocity decays as v0 exp(-sigma t / m), and each scheme by its own exact
// factor per substep of x = h sigma / m.
#include <cfloat>
#include <cmath>
#include <iostream>

#include <fmt/format.h>

#include "gpu_harness.h"
#include "solvers/springs/spring_settings.h"
#include "solvers/model_builder.h"

namespace vksim::test {
namespace {

class AirDrag : public GpuTest {};

struct DragCase {
    const char* name;
    SolverMethod method;
    SpringIntegrator integrator;
    PbdPath pbdPath;  // PBD: the whole-frame solve predicts in its own kernel, the others in the shared stage
    // The factor v_{n+1} / v_n of one substep for x = h sigma / m.
    double (*factor)(double x);
    bool rebuildsVelocity;  // the solve moves or iterates positions: their rounding enters v
};

double implicitFactor(double x) { return 1.0 / (1.0 + x); }
double explicitFactor(double x) { return 1.0 - x; }
double velocityVerletFactor(double x) { return (1.0 - 0.5 * x) * (1.0 - 0.5 * x); }
double midpointFactor(double x) { return 1.0 - x + 0.5 * x * x; }

// A 4x4 cloth of 1 kg (m = 1/16 kg a particle), sigma = 1/16 kg/s: sigma/m =
// 1/s, so over 1 s (240 substeps) v falls to e^-1 of v0 = 1 m/s.
//
// Tolerances. Against the scheme's factor: each substep rounds a few
// products of v (relative u = 2^-24 each, 4 allowed), and where the solve
// moves positions (PBD's and PD's projections of the rest shape's rounding
// noise) or iterates them (implicit Euler and VBD, relative to the solver's
// origin) the rounding of a position, at most u (|x| + 3 h |v|), over h,
// which later substeps carry (docs/physics.md §9.2, "Far from the origin"):
// over n substeps n u (4 |v0| + (max|x| + 3 h |v0|) / h), 3.5e-3 m/s for
// those here, 6e-5 m/s for the others. Against exp(-sigma t/m): the scheme's own
// error on top, n x^2 / 2 |v0| (the first-order schemes; a quarter of it for
// velocity Verlet, x^3 for the midpoint rule), 2.1e-3 m/s. Without drag the
// velocity would stay at 1 m/s, 0.63 m/s off.
TEST_F(AirDrag, EveryClothSolverDecaysAsTheClosedForm) {
    const DragCase cases[] = {
        {"pbd workgroup", SolverMethod::Pbd, SpringIntegrator::SymplecticEuler, PbdPath::Workgroup, implicitFactor,
         true},
        {"pbd perColour", SolverMethod::Pbd, SpringIntegrator::SymplecticEuler, PbdPath::PerColour, implicitFactor,
         true},
        {"pd", SolverMethod::Pd, SpringIntegrator::SymplecticEuler, PbdPath::Auto, implicitFactor, true},
        {"springs explicitEuler", SolverMethod::Springs, SpringIntegrator::ExplicitEuler, PbdPath::Auto,
         explicitFactor, false},
        {"springs symplecticEuler", SolverMethod::Springs, SpringIntegrator::SymplecticEuler, PbdPath::Auto,
         explicitFactor, false},
        {"springs velocityVerlet", SolverMethod::Springs, SpringIntegrator::VelocityVerlet, PbdPath::Auto,
         velocityVerletFactor, false},
        {"springs midpoint", SolverMethod::Springs, SpringIntegrator::Midpoint, PbdPath::Auto, midpointFactor, false},
        {"springs implicitEuler", SolverMethod::Springs, SpringIntegrator::ImplicitEuler, PbdPath::Auto,
         implicitFactor, true},
        {"springs vbd", SolverMethod::Springs, SpringIntegrator::Vbd, PbdPath::Auto, implicitFactor, true},
    };
    const double sigma = 1.0 / 16.0;
    const glm::vec3 v0(0.6f, 0.0f, 0.8f);
    for (const DragCase& c : cases) {
        Scene scene = clothScene({4, 4}, {0.5f, 0.5f}, 1.0f);
        ClothObject& cloth = scene.cloths[0];
        cloth.method = c.method;
        cloth.initialVelocity = v0;
        if (c.method == SolverMethod::Springs) {
            // No spring force at all: Newton's and VBD's steps are then
            // exact, whatever the iterations.
            cloth.springs.stretch = 0.0f;
            cloth.springs.shear = 0.0f;
            cloth.springs.bendingStiffness = 0.0f;
            cloth.springs.drag = float(sigma);
        } else {
            cloth.drag = float(sigma);
        }
        scene.solver.gravity = glm::vec3(0.0f);
        scene.solver.timeStep = 1.0f / 60.0f;
        scene.solver.substeps = 4;
        scene.solver.springs.integrator = c.integrator;
        scene.solver.pbd.path = c.pbdPath;
        const SimModel model = buildModel(scene);
        GpuRun run(ctx(), model, scene.solver);
        const uint32_t frames = 60;
        run.frames(frames);
        const std::vector<glm::vec4> v = run.velocities();
        const std::vector<glm::vec4> x = run.positions();

        const double h = double(scene.solver.timeStep) / scene.solver.substeps;
        const double n = frames * scene.solver.substeps;
        const double mass = double(cloth.mass) / double(model.particleCount());
        const double step = h * sigma / mass;
        const double speed0 = glm::length(glm::dvec3(v0));
        const double discrete = speed0 * std::pow(c.factor(step), n);
        const double continuous = speed0 * std::exp(-sigma * n * h / mass);
        double maxCoordinate = 0.0;
        for (const glm::vec4& p : x) maxCoordinate = std::max({maxCoordinate, double(std::abs(p.x)),
                                                               double(std::abs(p.y)), double(std::abs(p.z))});
        for (const glm::vec4& p : model.positions)
            maxCoordinate = std::max({maxCoordinate, double(std::abs(p.x)), double(std::abs(p.y)), double(std::abs(p.z))});
        const double u = FLT_EPSILON / 2;
        const double rounding =
            n * u * (4.0 * speed0 + (c.rebuildsVelocity ? (maxCoordinate + 3.0 * h * speed0) / h : 0.0));
        const double scheme = c.factor == midpointFactor           ? n * step * step * step * speed0
                              : c.factor == velocityVerletFactor ? 0.25 * n * step * step * speed0
                                                                 : 0.5 * n * step * step * speed0;
        double worstDiscrete = 0.0, worstContinuous = 0.0;
        for (uint32_t i = 0; i < model.particleCount(); ++i) {
            const glm::dvec3 vi = glm::dvec3(glm::vec3(v[i]));
            const glm::dvec3 direction = glm::dvec3(v0) / speed0;
            worstDiscrete = std::max(worstDiscrete, glm::length(vi - discrete * direction));
            worstContinuous = std::max(worstContinuous, glm::length(vi - continuous * direction));
        }
        std::cout << fmt::format("[air drag] {:<24} |v| after 1 s: scheme {:.6f} m/s, v0 exp(-sigma t/m) {:.6f} m/s; "
                                 "max |v - scheme| {:.2e} m/s (bound {:.2e}), max |v - closed form| {:.2e} m/s "
                                 "(bound {:.2e})\n",
                                 c.name, discrete, continuous, worstDiscrete, rounding, worstContinuous,
                                 rounding + scheme * 1.1);
        EXPECT_LE(worstDiscrete, rounding) << c.name;
        // The leading term of the scheme's error, 10% over it for the next ones.
        EXPECT_LE(worstContinuous, rounding + scheme * 1.1) << c.name;
    }
}

}  // namespace
}  // namespace vksim::test
