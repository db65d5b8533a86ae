// Two-way coupling of rigid bodies and particles (docs/physics.md §11,
// "Two-way coupling"): what the particles give a body comes back to it, and
// what a body gives them comes out of it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "gpu_harness.h"
#include "scene/scene_loader.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_reference.h"
#include "solvers/pd/pd_reference.h"
#include "solvers/pbd/pbd_solver.h"
#include "solvers/rigid/rigid_reference.h"
#include "solvers/springs/spring_reference.h"
#include "solvers/rigid/rigid_solver.h"
#include "solvers/springs/spring_settings.h"
#include "widened.h"

namespace vksim::test {
namespace {

class BodyCoupling : public GpuTest {};

struct Totals {
    glm::dvec3 linear{0.0};
    glm::dvec3 angular{0.0};  // about the world origin
    double kinetic = 0.0;
};

// The particles' and bodies' momentum and kinetic energy, in double.
Totals totals(GpuRun& gpu, const SimModel& model) {
    Totals total;
    const std::vector<glm::vec4> x = gpu.positions(), v = gpu.velocities();
    for (size_t i = 0; i < x.size(); ++i) {
        if (x[i].w <= 0.0f) continue;
        const double m = 1.0 / double(x[i].w);
        total.linear += m * xyz(v[i]);
        total.angular += m * glm::cross(xyz(x[i]), xyz(v[i]));
        total.kinetic += 0.5 * m * glm::dot(xyz(v[i]), xyz(v[i]));
    }
    const std::vector<gpu::RigidBodyState> states = gpu.stepper().solver<RigidSolver>().readStates();
    for (size_t b = 0; b < states.size(); ++b) {
        const gpu::RigidBody& body = model.rigid.bodies[b];
        const double mass = 1.0 / double(body.inverseMass);
        const glm::vec4 q = states[b].rotation;
        const glm::dmat3 rotation = glm::mat3_cast(glm::dquat(q.w, q.x, q.y, q.z));
        const glm::dmat3 inertia = rotation *
                                   glm::dmat3(xyz(body.inertia0), xyz(body.inertia1), xyz(body.inertia2)) *
                                   glm::transpose(rotation);
        const glm::dvec3 c = xyz(states[b].position), vb = xyz(states[b].linearVelocity);
        const glm::dvec3 w = xyz(states[b].angularVelocity);
        total.linear += mass * vb;
        total.angular += mass * glm::cross(c, vb) + inertia * w;
        total.kinetic += 0.5 * mass * glm::dot(vb, vb) + 0.5 * glm::dot(w, inertia * w);
    }
    return total;
}

// A 0.6 m cloth of 0.2 kg thrown at 2 m/s at a box at rest, no gravity.
Scene thrownCloth(float boxMass, glm::vec3 offset, SolverMethod method = SolverMethod::Pbd) {
    Scene scene = clothScene({16, 16}, {0.6f, 0.6f}, 0.0f);
    scene.path = "coupling.json";
    scene.solver.gravity = glm::vec3(0.0f);
    ClothObject& cloth = scene.cloths[0];
    cloth.method = method;
    scene.solver.springs.integrator = SpringIntegrator::ImplicitEuler;
    scene.solver.pd.jacobiIterations = 60;  // PD's global steps converged: its own drift out of the way
    cloth.mass = 0.2f;
    cloth.position = glm::vec3(0.0f, 0.3f, 0.0f) + offset;
    cloth.initialVelocity = glm::vec3(0.0f, -2.0f, 0.0f);
    BodyDesc box;
    box.name = "box";
    box.source = "/bodies/0";
    box.shape = BodyShape::Box;
    box.halfExtents = glm::vec3(0.15f, 0.1f, 0.15f);
    box.mass = boxMass;
    box.friction = 0.5f;
    scene.bodies.push_back(box);
    return scene;
}

// In zero gravity, the cloth and the box exchange momentum and nothing
// else acts: the totals must stay what they were. Linear momentum is summed
// in the fixed-order gather and handed over exactly in exact arithmetic, so
// its drift is float rounding of 256 particles' and one body's velocities
// over 120 substeps: bound 1e-4 of the 0.4 kg m/s thrown. Angular momentum
// also loses what PBD's velocity (p - x)/h makes of a push at p rather than
// at x, first order in h (the same term as the particle contacts, §14):
// bound 3e-2 of |P| times the cloth's half-size (0.3 m). A mass-spring
// cloth (implicit Euler) hands over its one projection after the solve and
// its friction at the end of the substep, under the same bounds. So does a
// projective-dynamics cloth, whose own global steps, not converged, keep
// momentum only so far (1.2e-3 of P at the default 20 Jacobi iterations):
// with 60, bound 5e-4; its projection after the solve pushes a particle up
// to a whole substep's penetration, so its angular term is larger: bound
// 1e-1.
TEST_F(BodyCoupling, ClothThrownAtABoxKeepsMomentum) {
    for (const auto& [method, offset] :
         {std::pair{SolverMethod::Pbd, glm::vec3(0.0f)}, std::pair{SolverMethod::Pbd, glm::vec3(0.12f, 0.0f, 0.05f)},
          std::pair{SolverMethod::Springs, glm::vec3(0.12f, 0.0f, 0.05f)},
          std::pair{SolverMethod::Pd, glm::vec3(0.12f, 0.0f, 0.05f)}}) {
        const Scene scene = thrownCloth(0.5f, offset, method);
        const SimModel model = buildModel(scene);
        GpuRun gpu(ctx(), model, scene.solver);
        const Totals before = totals(gpu, model);
        double linear = 0.0, angular = 0.0;
        // 30 frames: the cloth reaches the box in the sixth and has handed
        // its push over by the thirtieth.
        for (int f = 0; f < 3; ++f) {
            gpu.frames(10);
            const Totals now = totals(gpu, model);
            ASSERT_TRUE(std::isfinite(now.kinetic) && std::isfinite(glm::length(now.angular)));
            linear = std::max(linear, glm::length(now.linear - before.linear));
            angular = std::max(angular, glm::length(now.angular - before.angular));
        }
        const gpu::RigidBodyState box = gpu.stepper().solver<RigidSolver>().readStates()[0];
        const double thrown = glm::length(before.linear);
        std::printf("%s cloth thrown at a box, offset (%.2f, %.2f): |dP| %.2e (%.1e of P), |dL| %.2e (%.1e of P l); "
                    "box v (%.3f, %.3f, %.3f) m/s, w (%.3f, %.3f, %.3f) rad/s\n",
                    method == SolverMethod::Pbd ? "PBD" : method == SolverMethod::Pd ? "PD" : "mass-spring", offset.x, offset.z, linear, linear / thrown,
                    angular, angular / (thrown * 0.3),
                    box.linearVelocity.x, box.linearVelocity.y, box.linearVelocity.z, box.angularVelocity.x,
                    box.angularVelocity.y, box.angularVelocity.z);
        EXPECT_LT(linear, (method == SolverMethod::Pd ? 5e-4 : 1e-4) * thrown);
        EXPECT_LT(angular, (method == SolverMethod::Pd ? 1e-1 : 3e-2) * thrown * 0.3);
        EXPECT_LT(box.linearVelocity.y, -0.3f);  // pushed the way the cloth flew
    }
}

// The coupled step against the CPU reference in double precision
// (ReferenceWorld::coupleBodies with RigidReference's bodies and a PBD or
// mass-spring or PD reference cloth: the bodies' substep, their colliders, the
// pushes the collision projection and the contact velocities record, the
// exchange after every PBD iteration and at the end of the substep): a 0.16 m cloth
// thrown off-centre at the top face of the box (friction 0.5), 30 frames
// through the impact (frame 7) and after, on the per-colour path (the
// reference's order). The cloth starts 3.7 mm higher than thrownCloth's:
// from there it reached the face exactly at the end of a substep, where
// float and double disagreed on whether it touched, and the impact was
// taken by the contact velocities in one and by the next substep's
// projection in the other (with friction, 5e-4 apart in the box's speed).
// Measured on lavapipe: PBD, particles within 7.0e-6 m, the box within
// 2.2e-7 m and 1.5e-6 rad; mass-spring (symplectic Euler, 16 substeps),
// 3.2e-7 m, 8.2e-7 m and 2.8e-7 rad; growing from float rounding. Bounds
// 1e-4 m, 1e-5 m, 1e-5 rad. A projective-dynamics cloth (60 Jacobi
// iterations against the reference's direct global solve): 5.2e-5 m,
// 1.0e-6 m, 1.8e-5 rad; bounds 3e-4 m, 1e-5 m, 1e-4 rad.
TEST_F(BodyCoupling, GpuMatchesTheCoupledReference) {
    for (const SolverMethod method : {SolverMethod::Pbd, SolverMethod::Springs, SolverMethod::Pd}) {
        Scene scene = thrownCloth(0.5f, glm::vec3(0.05f, 0.0037f, 0.04f), method);
        scene.cloths[0].grid.size = glm::vec2(0.16f);
        scene.solver.pbd.path = PbdPath::PerColour;
        if (method == SolverMethod::Springs) {
            // Symplectic Euler, whose passes the reference repeats one for
            // one (Newton's Jacobi solves are not exact), with springs soft
            // enough for h = 1/960 s.
            scene.solver.springs.integrator = SpringIntegrator::SymplecticEuler;
            scene.solver.substeps = 16;
            scene.cloths[0].springs.stretch = 50.0f;
            scene.cloths[0].springs.shear = 10.0f;
            scene.cloths[0].springs.bendingStiffness = 1.0f;
        }
        const SimModel model = buildModel(scene);
        std::unique_ptr<ReferenceSimulation> cpu;
        if (method == SolverMethod::Pbd)
            cpu = std::make_unique<PbdReference>(model);
        else if (method == SolverMethod::Springs)
            cpu = std::make_unique<SpringReference>(model);
        else
            cpu = std::make_unique<PdReference>(model);
        GpuRun gpu(ctx(), model, scene.solver);
        RigidReference bodies(model);
        cpu->coupleBodies(bodies);
        const char* name = method == SolverMethod::Pbd ? "PBD" : method == SolverMethod::Springs ? "mass-spring" : "PD";
        double particles = 0.0, position = 0.0, rotation = 0.0;
        for (uint32_t frame = 1; frame <= 30; ++frame) {
            gpu.frames(1);
            cpu->step(scene.solver);
            const double most = largestDistance(gpu.positions(), cpu->positions());
            const gpu::RigidBodyState box = gpu.stepper().solver<RigidSolver>().readStates()[0];
            const ReferenceBodyState& expected = bodies.states()[0];
            const double moved = glm::length(xyz(box.position) - expected.position);
            const glm::dvec4 q = glm::dvec4(box.rotation), e = expected.rotation;
            const double turned = 2.0 * std::acos(std::min(1.0, std::abs(glm::dot(q, e)) / glm::length(q)));
            if (frame % 10 == 0)
                std::printf("[coupling] %s, frame %u vs the CPU reference: particles %.3e m, box %.3e m, %.3e rad\n",
                            name, frame, most, moved, turned);
            particles = std::max(particles, most);
            position = std::max(position, moved);
            rotation = std::max(rotation, turned);
        }
        EXPECT_GT(glm::length(xyz(gpu.stepper().solver<RigidSolver>().readStates()[0].linearVelocity)), 0.1)
            << name << ": the cloth never hit the box";
        const bool pd = method == SolverMethod::Pd;  // its Jacobi global steps against a direct solve
        EXPECT_LT(particles, pd ? 3e-4 : 1e-4) << name;
        EXPECT_LT(position, 1e-5) << name;
        EXPECT_LT(rotation, pd ? 1e-4 : 1e-5) << name;
    }
}

// However light the body, the exchange adds no energy: the body and the
// particles touching it share each push as one rigid aggregate, so a body
// four times lighter than the cloth is pushed at most at the speed of a
// fully elastic collision of the two, 2 m v / (m + M), and the total
// kinetic energy never grows (bound: float rounding, 1e-6 of it).
TEST_F(BodyCoupling, ALightBoxIsPushedWithoutEnergyGained) {
    const Scene scene = thrownCloth(0.05f, glm::vec3(0.0f));
    const SimModel model = buildModel(scene);
    GpuRun gpu(ctx(), model, scene.solver);
    const Totals before = totals(gpu, model);
    double most = before.kinetic;
    for (int f = 0; f < 30; ++f) {
        gpu.frames(2);
        const double kinetic = totals(gpu, model).kinetic;
        ASSERT_TRUE(std::isfinite(kinetic));
        most = std::max(most, kinetic);
    }
    const gpu::RigidBodyState box = gpu.stepper().solver<RigidSolver>().readStates()[0];
    const double elastic = 2.0 * 0.2 * 2.0 / (0.2 + 0.05), common = 0.2 * 2.0 / (0.2 + 0.05);
    std::printf("a 0.05 kg box hit by a 0.2 kg cloth at 2 m/s: box %.3f m/s (common %.3f, elastic %.3f); kinetic "
                "energy %.4f J, most %.4f J\n",
                -box.linearVelocity.y, common, elastic, before.kinetic, most);
    EXPECT_LE(most, before.kinetic * (1.0 + 1e-6));
    EXPECT_GT(-box.linearVelocity.y, 0.5 * common);
    EXPECT_LE(-box.linearVelocity.y, elastic);
}

// contacts_trampoline.json: a 1 kg box dropped onto a 0.2 kg cloth pinned
// along its edges comes to rest on it. After 12 s of settling its height
// stays within 1 mm over the next 600 frames, and the pins carry the
// weight of the box and of the cloth's free particles (the pinned ones rest
// on their pins directly): their vertical force, summed from the XPBD
// multipliers of the stretch constraints that hold a pinned particle
// (lambda / h^2 along the constraint: what it applied over the last
// substep), is that weight to 2%. What is left: the damping's share of
// gravity (damping h, 0.8% of the cloth's weight) and what is left of the
// motion.
TEST_F(BodyCoupling, TrampolineCarriesTheBox) {
    const Scene scene = loadScene(sourcePath("scenes/contacts_trampoline.json"));
    const SimModel model = buildModel(scene);
    GpuRun gpu(ctx(), model, scene.solver);
    gpu.frames(720);
    double low = 1e9, high = -1e9;
    for (int f = 0; f < 60; ++f) {
        gpu.frames(10);
        const double y = gpu.stepper().solver<RigidSolver>().readStates()[0].position.y;
        low = std::min(low, y);
        high = std::max(high, y);
    }
    const PbdConstraints& constraints = gpu.stepper().solver<PbdSolver>().constraints();
    const std::vector<gpu::DistanceConstraint> distance =
        constraints.constraints(gpu::kPbdFamilyDistance).downloadArray<gpu::DistanceConstraint>();
    const std::vector<float> lambdas = constraints.lambdas(gpu::kPbdFamilyDistance).downloadArray<float>();
    const std::vector<glm::vec4> x = gpu.positions();
    const double h = scene.solver.timeStep / scene.solver.substeps;
    double pinForce = 0.0;
    for (size_t j = 0; j < distance.size(); ++j) {
        const gpu::DistanceConstraint& c = distance[j];
        const bool pinned0 = x[c.p0].w == 0.0f, pinned1 = x[c.p1].w == 0.0f;
        if (pinned0 == pinned1) continue;
        const uint32_t free = pinned0 ? c.p1 : c.p0, pin = pinned0 ? c.p0 : c.p1;
        // On the free particle the constraint acts along n = the unit vector from the pin, times lambda / h^2.
        const glm::dvec3 n = glm::normalize(xyz(x[free]) - xyz(x[pin]));
        pinForce += n.y * double(lambdas[j]) / (h * h);
    }
    double freeMass = 0.0;
    for (const glm::vec4& p : x)
        if (p.w > 0.0f) freeMass += 1.0 / double(p.w);
    const double weight = (1.0 + freeMass) * 9.81;
    std::printf("trampoline: box height %.5f..%.5f m over 600 frames; pins' vertical force %.4f N, weight %.4f N "
                "(%.2e off)\n",
                low, high, pinForce, weight, std::abs(pinForce - weight) / weight);
    EXPECT_LT(high - low, 1e-3);
    EXPECT_NEAR(pinForce, weight, 0.02 * weight);
    EXPECT_LT(high, 0.5);  // on the cloth, below where it was pinned
}

// A 1 kg plate on a jelly cube (a 0.3 m PBD mesh of 0.5 kg held by shape
// matching, linear mode) squashes it and rests on it: after 4 s the jelly's
// top is lower than the same jelly's alone, by more than 2 mm (measured and
// printed), the plate lies on the jelly (its bottom within 1 cm above the
// jelly's highest particle, never below it) and above the ground, and it
// stays within 1 mm over the next 60 frames. Without the coupling the plate
// would fall through the jelly's particles untouched.
TEST_F(BodyCoupling, APlateSquashesAJellyCube) {
    const std::string jelly = sourcePath("assets/jelly_cube.obj");
    auto scene = [&](bool plate) {
        const std::string body = R"("bodies": [ { "type": "box", "name": "plate", "halfExtents": [0.2, 0.03, 0.2],
            "mass": 1.0, "position": [0, 0.35, 0], "friction": 0.5 } ],)";
        return parseScene(fmt::format(R"({{
            "solver": {{ "timeStep": 0.0166667, "substeps": 4, "iterations": 8 }}, {}
            "objects": [ {{ "type": "mesh", "name": "jelly", "file": "{}", "mass": 0.5, "position": [0, 0.16, 0],
                "stretch": {{ "enabled": false }}, "bending": {{ "enabled": false }},
                "shapeMatching": {{ "mode": "linear", "beta": 0.5, "stiffness": 0.3 }} }} ],
            "colliders": [ {{ "type": "plane", "name": "ground" }} ] }})",
                                      plate ? body : "", jelly),
                          "jelly.json");
    };
    auto top = [](const std::vector<glm::vec4>& x) {
        double highest = -1e9;
        for (const glm::vec4& p : x) highest = std::max(highest, double(p.y));
        return highest;
    };
    const Scene alone = scene(false), pressed = scene(true);
    const SimModel aloneModel = buildModel(alone), pressedModel = buildModel(pressed);
    GpuRun free(ctx(), aloneModel, alone.solver), squashed(ctx(), pressedModel, pressed.solver);
    free.frames(240);
    squashed.frames(240);
    const double restTop = top(free.positions()), squashedTop = top(squashed.positions());
    const double plateBottom = squashed.stepper().solver<RigidSolver>().readStates()[0].position.y - 0.03;
    double low = 1e9, high = -1e9;
    for (int f = 0; f < 6; ++f) {
        squashed.frames(10);
        const double y = squashed.stepper().solver<RigidSolver>().readStates()[0].position.y;
        low = std::min(low, y);
        high = std::max(high, y);
    }
    std::printf("jelly top alone %.4f m, under the plate %.4f m; plate bottom %.4f m; plate over 60 frames "
                "%.5f..%.5f m\n",
                restTop, squashedTop, plateBottom, low, high);
    EXPECT_LT(squashedTop, restTop - 2e-3);
    EXPECT_GE(plateBottom, squashedTop - 1e-3);
    EXPECT_LT(plateBottom, squashedTop + 1e-2);
    EXPECT_GT(plateBottom, 0.05);
    EXPECT_LT(high - low, 1e-3);
}

}  // namespace
}  // namespace vksim::test
