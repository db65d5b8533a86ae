// The wind on cloth (docs/physics.md §15): the drag of a plate square to a
// steady wind and the lift of a plate at an angle of attack against the
// closed forms 1/2 rho C_d A |U|^2 and 1/2 rho C_l A |U|^2 cos(theta)
// sin(theta), under every cloth solver; and the wind passes' per-particle
// accelerations against the CPU evaluation in double precision
// (solvers/wind_reference.h), gusts included, on a whole cloth and on one
// that tears and splits its vertices.
#include <cfloat>
#include <cmath>
#include <iostream>

#include <fmt/format.h>

#include "gpu_harness.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_solver.h"
#include "solvers/pbd/pbd_splitting.h"
#include "solvers/pbd/pbd_tearing.h"
#include "solvers/wind_reference.h"
#include "torn_sheet.h"

namespace vksim::test {
namespace {

class Wind : public GpuTest {};

constexpr double kPi = 3.14159265358979323846;
constexpr double kRho = 1.2, kDrag = 1.1, kLift = 0.7;

struct WindSolver {
    const char* name;
    SolverMethod method;
    SpringIntegrator integrator;
    PbdPath pbdPath;
    bool rebuildsVelocity;  // the solve moves or iterates positions: their rounding enters v
};

const WindSolver kWindSolvers[] = {
    {"pbd perColour", SolverMethod::Pbd, SpringIntegrator::SymplecticEuler, PbdPath::PerColour, true},
    {"pbd clusters", SolverMethod::Pbd, SpringIntegrator::SymplecticEuler, PbdPath::Clusters, true},
    {"pd", SolverMethod::Pd, SpringIntegrator::SymplecticEuler, PbdPath::Auto, true},
    {"springs explicitEuler", SolverMethod::Springs, SpringIntegrator::ExplicitEuler, PbdPath::Auto, false},
    {"springs symplecticEuler", SolverMethod::Springs, SpringIntegrator::SymplecticEuler, PbdPath::Auto, false},
    {"springs velocityVerlet", SolverMethod::Springs, SpringIntegrator::VelocityVerlet, PbdPath::Auto, false},
    {"springs midpoint", SolverMethod::Springs, SpringIntegrator::Midpoint, PbdPath::Auto, false},
    {"springs implicitEuler", SolverMethod::Springs, SpringIntegrator::ImplicitEuler, PbdPath::Auto, true},
    {"springs vbd", SolverMethod::Springs, SpringIntegrator::Vbd, PbdPath::Auto, true},
};

// A 1 m x 1 m plate of 9 x 9 particles and 1 kg at rest about the origin,
// turned by `degrees` about +Z (unturned it lies in the XZ plane), in a
// steady wind U, no gravity, one substep of 1/240 s a frame.
Scene plateScene(const WindSolver& c, double degrees, glm::vec3 wind) {
    Scene scene = clothScene({9, 9}, {1.0f, 1.0f}, 0.0f);
    ClothObject& cloth = scene.cloths[0];
    cloth.method = c.method;
    const double half = 0.5 * degrees * kPi / 180.0;
    cloth.rotation = glm::vec4(0.0f, 0.0f, float(std::sin(half)), float(std::cos(half)));
    cloth.aero = AeroParams{.drag = float(kDrag), .lift = float(kLift)};
    scene.solver.gravity = glm::vec3(0.0f);
    scene.solver.timeStep = 1.0f / 240.0f;
    scene.solver.substeps = 1;
    scene.solver.air.density = float(kRho);
    scene.solver.air.wind = wind;
    scene.solver.springs.integrator = c.integrator;
    scene.solver.pbd.path = c.pbdPath;
    return scene;
}

struct Measured {
    glm::dvec3 force;  // sum of m v / h after one substep from rest [N]
    double bound;      // its rounding bound [N] (see below)
};

// After one substep from rest, sum m_i v_i = h F: the internal forces and
// constraints of every solver conserve momentum (equal masses), so the
// total is the wind's alone. Rounding bound: each particle's v carries a
// few roundings of h a (relative u = 2^-24 each, 8 allowed) and, where the
// solve moves or iterates positions, the rounding of a position, at most
// u (max|x| + 3 h |v|), over h (as in air_drag_test.cpp); summed over the
// particles, times m / h.
Measured measureForce(VulkanContext& ctx, const Scene& scene, const WindSolver& c) {
    const SimModel model = buildModel(scene);
    GpuRun run(ctx, model, scene.solver);
    run.frames(1);
    const std::vector<glm::vec4> v = run.velocities();
    const std::vector<glm::vec4> x = run.positions();
    const double h = double(scene.solver.timeStep);
    const double m = double(scene.cloths[0].mass) / double(model.particleCount());
    const double u = FLT_EPSILON / 2;
    Measured out{glm::dvec3(0.0), 0.0};
    for (size_t i = 0; i < v.size(); ++i) {
        const glm::dvec3 vi(glm::vec3(v[i]));
        out.force += m * vi / h;
        const double xi = std::max({std::abs(x[i].x), std::abs(x[i].y), std::abs(x[i].z)});
        const double speed = glm::length(vi);
        const double rounding = 8.0 * u * speed + (c.rebuildsVelocity ? u * (xi + 3.0 * h * speed) / h : 0.0);
        out.bound += m * rounding / h;
    }
    return out;
}

// Square to the wind (U along the plate's normal, theta = 0): the drag
// 1/2 rho C_d A |U|^2 along U, and no lift whatever C_l.
TEST_F(Wind, PlateSquareToTheWindFeelsTheDragOfTheFormula) {
    const glm::dvec3 wind(0.0, 6.0, 0.0);
    const double area = 1.0;
    const glm::dvec3 expected = 0.5 * kRho * kDrag * area * glm::dot(wind, wind) * glm::normalize(wind);
    for (const WindSolver& c : kWindSolvers) {
        const Measured measured = measureForce(ctx(), plateScene(c, 0.0, glm::vec3(wind)), c);
        const double error = glm::length(measured.force - expected);
        std::cout << fmt::format("[wind drag] {:<24} F = ({:.6f}, {:.6f}, {:.6f}) N, formula (0, {:.6f}, 0) N: "
                                 "|error| {:.2e} N ({:.2e} relative; bound {:.2e} N)\n",
                                 c.name, measured.force.x, measured.force.y, measured.force.z, expected.y, error,
                                 error / glm::length(expected), measured.bound);
        EXPECT_LE(error, measured.bound) << c.name;
    }
}

// At an angle: a plate turned by beta about +Z in a wind U along +X has the
// unit normal n = (-sin beta, cos beta, 0), cos(theta) = |n.U|/|U| =
// |sin beta|, sin(theta) = cos beta. Drag 1/2 rho C_d A |U|^2 |sin beta|
// along +X; lift 1/2 rho C_l A |U|^2 |sin beta| cos beta along -Y for beta > 0
// (the plate rises downstream: its lower face is in the lee, the air pushes
// it down) and +Y for beta < 0. Turning by 180 + beta flips the normal and
// the triangles' winding, and must change nothing (two-sided).
TEST_F(Wind, PlateAtAnAngleFeelsTheLiftOfTheFormula) {
    const double speed = 5.0;
    const double area = 1.0;
    const double q = 0.5 * kRho * area * speed * speed;
    struct Angle {
        double degrees;  // the turn
        double beta;     // the plane's angle, [-90, 90]
    };
    const Angle angles[] = {{30.0, 30.0}, {-20.0, -20.0}, {210.0, 30.0}};
    for (const WindSolver& c : {kWindSolvers[0], kWindSolvers[2], kWindSolvers[4], kWindSolvers[7]}) {
        for (const Angle& a : angles) {
            const double beta = a.beta * kPi / 180.0;
            const double cosTheta = std::abs(std::sin(beta)), sinTheta = std::cos(beta);
            const glm::dvec3 expected(q * kDrag * cosTheta, -std::copysign(1.0, beta) * q * kLift * cosTheta * sinTheta,
                                      0.0);
            const Measured measured = measureForce(ctx(), plateScene(c, a.degrees, glm::vec3(speed, 0.0, 0.0)), c);
            const double error = glm::length(measured.force - expected);
            std::cout << fmt::format("[wind lift] {:<24} turned {:>5.0f} deg: drag {:.6f} N (formula {:.6f}), "
                                     "lift {:+.6f} N (formula {:+.6f}), z {:.1e} N: |error| {:.2e} N ({:.2e} "
                                     "relative; bound {:.2e} N)\n",
                                     c.name, a.degrees, measured.force.x, expected.x, measured.force.y, expected.y,
                                     measured.force.z, error, error / glm::length(expected), measured.bound);
            EXPECT_LE(error, measured.bound) << c.name << " turned " << a.degrees;
        }
    }
}

// The accelerations the wind passes leave for the prediction of the frame
// after `frames` (one substep a frame) against the CPU evaluation of the
// same model in double precision, from the positions, velocities, clock and
// triangles read back before it.
// One substep of 1/60 s a frame in air of 1.2 kg/m^3 blowing at `wind`
// with gusts of `strength` (scale 0.5 m, period 0.7 s) from `seed`.
void gustyAir(SolverSettings& solver, glm::vec3 wind, float strength, uint32_t seed) {
    solver.timeStep = 1.0f / 60.0f;
    solver.substeps = 1;
    solver.air.density = 1.2f;
    solver.air.wind = wind;
    solver.air.gusts = GustSettings{.strength = strength, .scale = 0.5f, .period = 0.7f, .seed = seed};
}

struct ReferenceCheck {
    std::vector<glm::vec4> gpu;
    std::vector<glm::dvec3> cpu;
    double largest = 0.0, worst = 0.0;
};

ReferenceCheck checkAgainstReference(GpuRun& run, const SimModel& model, const Scene& scene, uint32_t frames) {
    run.frames(frames);
    const ParticleStore& particles = run.stepper().particles();
    const std::vector<glm::vec4> x = run.positions();
    const std::vector<glm::vec4> v = run.velocities();
    std::vector<uint32_t> triangles = particles.triangleIndices().downloadArray<uint32_t>();
    triangles.resize(3 * size_t(particles.triangleCount()));
    const uint32_t clock = run.stepper().wind()->clock().downloadArray<uint32_t>().at(0);
    EXPECT_EQ(clock, frames * scene.solver.substeps);
    run.frames(1);
    ReferenceCheck check;
    check.gpu = particles.windAccelerations().downloadArray<glm::vec4>();
    const double t = double(clock) * double(scene.solver.timeStep / float(scene.solver.substeps));
    check.cpu = windAccelerationsReference(model, x, v, triangles, scene.solver.air, t);
    for (size_t i = 0; i < check.cpu.size(); ++i) {
        check.largest = std::max(check.largest, glm::length(check.cpu[i]));
        check.worst = std::max(check.worst, glm::length(glm::dvec3(glm::vec3(check.gpu.at(i))) - check.cpu[i]));
    }
    return check;
}

// Gusts, a crumpled moving cloth and pins. Tolerance: each triangle's
// force is some 20 float32 roundings of sizes up to its own (relative u =
// 6e-8 each), the air's velocity one of u |x| / scale in the noise's
// argument, so 1e-4 of the largest acceleration is ten times more than
// rounding can reach; a triangle missed or a term wrong is a sixth of a
// particle's force or more.
TEST_F(Wind, AccelerationsMatchTheDoublePrecisionReference) {
    Scene scene = clothScene({14, 11}, {1.3f, 1.0f}, 1.0f);
    ClothObject& cloth = scene.cloths[0];
    cloth.pinned = {{0, 0}, {13, 0}};
    cloth.aero = AeroParams{.drag = 1.1f, .lift = 0.6f};
    cloth.initialVelocity = glm::vec3(0.3f, -0.2f, 0.5f);
    gustyAir(scene.solver, glm::vec3(3.0f, 1.0f, 2.0f), 2.0f, 42);
    const SimModel model = buildModel(scene);
    GpuRun run(ctx(), model, scene.solver);
    const uint32_t frames = 20;
    const ReferenceCheck check = checkAgainstReference(run, model, scene, frames);
    std::cout << fmt::format("[wind reference] {} particles after {} frames: largest |a| {:.4f} m/s^2, "
                             "max |a_gpu - a_cpu| {:.2e} m/s^2 ({:.2e} of the largest; tolerance 1e-4)\n",
                             check.cpu.size(), frames, check.largest, check.worst, check.worst / check.largest);
    EXPECT_GT(check.largest, 1.0);  // the wind pushes (4 m/s, about 0.13 kg/m^2)
    EXPECT_LE(check.worst, 1e-4 * check.largest);
}

// A sheet that tears in the wind and splits its vertices (docs/physics.md
// §1, "Tearing"): a particle split from a vertex feels the wind on the
// triangles it took, the vertex no longer feels them, and a dropped
// triangle no one. The reference adds each triangle's force to its corners
// of the moment, so a stale vertex -> triangle row shows as a sixth or more
// of a particle's force. Tolerance as above.
TEST_F(Wind, SplitParticlesFeelTheWindOnTheirTriangles) {
    Scene scene = tornSheet(PbdPath::PerColour, float(kTornSheetVertices));
    scene.cloths[0].aero = AeroParams{.drag = 1.1f, .lift = 0.6f};
    gustyAir(scene.solver, glm::vec3(1.0f, 3.0f, 0.5f), 1.0f, 7);
    const SimModel model = buildModel(scene);
    GpuRun run(ctx(), model, scene.solver);
    pullTornSheet(run, model);
    const uint32_t frames = 12;
    const ReferenceCheck check = checkAgainstReference(run, model, scene, frames);
    const glm::uvec3 fill = run.stepper().solver<PbdSolver>().tearing()->splitting()->readFill().at(0);
    double spareLargest = 0.0;
    for (size_t i = kTornSheetVertices; i < check.cpu.size(); ++i)
        spareLargest = std::max(spareLargest, glm::length(check.cpu[i]));
    std::cout << fmt::format("[wind reference] torn sheet after {} frames: {} spare particles in use, largest |a| "
                             "{:.4f} m/s^2 ({:.4f} on a spare), max |a_gpu - a_cpu| {:.2e} m/s^2 ({:.2e} of the "
                             "largest; tolerance 1e-4)\n",
                             frames + 1, fill.x, check.largest, spareLargest, check.worst,
                             check.worst / check.largest);
    EXPECT_GT(fill.x, 0u);
    EXPECT_GT(spareLargest, 0.1 * check.largest);  // the spares feel the wind
    EXPECT_LE(check.worst, 1e-4 * check.largest);
}

}  // namespace
}  // namespace vksim::test
