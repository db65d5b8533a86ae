// Cloth attached to rigid bodies and colliders, and motion constraints
// (docs/physics.md §1, "Attachments to bodies and colliders"): attached
// particles follow a thrown, spinning body; motion-constrained ones never
// leave their sphere; a box hanging from pins by a short cloth strip swings
// with the pendulum's period; the GPU follows the coupled CPU reference;
// momentum is kept where nothing else acts; runs repeat bit for bit; a cloth
// attached to a collider follows it when it is moved. Each test prints what
// it measured.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "gpu_harness.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_reference.h"
#include "solvers/pd/pd_reference.h"
#include "solvers/rigid/rigid_reference.h"
#include "solvers/rigid/rigid_solver.h"
#include "solvers/springs/spring_reference.h"
#include "solvers/springs/spring_settings.h"
#include "model/collider_builder.h"
#include "state/collider_set.h"
#include "widened.h"

namespace vksim::test {
namespace {

class FrameAttachments : public GpuTest {};

glm::dvec3 rotate(const glm::vec4& q, const glm::dvec3& v) {
    return glm::dquat(q.w, q.x, q.y, q.z) * v;
}

const char* methodName(SolverMethod method) {
    return method == SolverMethod::Pbd ? "PBD" : method == SolverMethod::Pd ? "PD" : "mass-spring";
}

// A 0.3 m, 5 x 5 cloth of 50 g lying flat just above a 1 kg box (0.3 x 0.2
// x 0.2 m), its row 0 attached to the box at rest (maxDistance 0) or within
// `maxDistance`; the box thrown up and sideways, spinning about a tilted axis.
Scene thrownBox(SolverMethod method, float maxDistance = 0.0f) {
    Scene scene = clothScene({5, 5}, {0.3f, 0.3f}, 0.13f);
    scene.path = "attachments.json";
    ClothObject& cloth = scene.cloths[0];
    cloth.method = method;
    cloth.mass = 0.05f;
    cloth.position.z = 0.1f;  // row 0 over the box's top face, the rest beyond it
    ClothAttachment attachment;
    attachment.name = "box";
    attachment.source = "/objects/0/attachments/0";
    attachment.maxDistance = maxDistance;
    for (uint32_t c = 0; c < 5; ++c) attachment.vertices.push_back(c);  // row 0
    cloth.attachments.push_back(attachment);
    BodyDesc box;
    box.name = "box";
    box.source = "/bodies/0";
    box.shape = BodyShape::Box;
    box.halfExtents = glm::vec3(0.15f, 0.1f, 0.1f);
    box.mass = 1.0f;
    box.velocity = glm::vec3(0.4f, 2.5f, -0.3f);
    box.angularVelocity = glm::vec3(2.0f, 6.0f, 1.0f);
    scene.bodies.push_back(box);
    scene.solver.springs.integrator = SpringIntegrator::SymplecticEuler;
    if (method == SolverMethod::Springs) {
        // Symplectic Euler, which the reference repeats pass for pass, with
        // springs soft enough for h = 1/960 s.
        scene.solver.substeps = 16;
        cloth.springs.stretch = 50.0f;
        cloth.springs.shear = 10.0f;
        cloth.springs.bendingStiffness = 1.0f;
    }
    scene.solver.pd.jacobiIterations = 60;
    scene.solver.pbd.path = PbdPath::PerColour;
    return scene;
}

// Each attachment's point on its row's frame, from the bodies' states read
// back (a body's row is its shape, shapes[b], at its pose) and the scene's
// colliders as `rows` holds them.
std::vector<glm::dvec3> attachedPoints(GpuRun& gpu, const SimModel& model,
                                      const std::vector<gpu::Collider>& rows) {
    std::vector<gpu::RigidBodyState> states;
    if (model.rigid.bodyCount() > 0) states = gpu.stepper().solver<RigidSolver>().readStates();
    const auto sceneColliders = static_cast<uint32_t>(model.colliders.size());
    std::vector<glm::dvec3> points;
    for (const gpu::FrameAttachment& a : model.frameAttachments) {
        if (a.collider < sceneColliders) {
            const gpu::Collider& row = rows[a.collider];
            points.push_back(xyz(row.position) + rotate(row.rotation, xyz(a.local)));
            continue;
        }
        const uint32_t b = a.collider - sceneColliders;
        const gpu::RigidBodyState& s = states[b];
        const glm::dvec3 origin = xyz(s.position) + rotate(s.rotation, xyz(model.rigid.shapes[b].position));
        points.push_back(origin + rotate(s.rotation, xyz(a.local)));
    }
    return points;
}

// The largest distance of an attached particle from its point, less its
// radius (negative: all well within).
double largestExcess(GpuRun& gpu, const SimModel& model, const std::vector<gpu::Collider>& rows) {
    const std::vector<glm::vec4> x = gpu.positions();
    const std::vector<glm::dvec3> points = attachedPoints(gpu, model, rows);
    double worst = -1.0;
    for (size_t k = 0; k < points.size(); ++k) {
        const gpu::FrameAttachment& a = model.frameAttachments[k];
        worst = std::max(worst, glm::length(xyz(x[a.particle]) - points[k]) - double(a.local.w));
    }
    return worst;
}

// The attached row stays on the box while it flies, turns about a tilted
// axis (a third of a turn in 1/3 s) and the cloth flaps behind it. At the end of
// a frame the particle is where the last projection put it, moved with the
// body by the exchange that follows (the same rigid change, linearized:
// rotation angle squared times the 0.17 m lever) and rounded to float.
// PBD on the per-colour and cluster paths (the clusters project the
// attachments in the same place of each iteration). Measured on lavapipe:
// PBD 6.7e-8 m, mass-spring 3.6e-8 m, PD 3.5e-8 m.
// Bound 1e-5 m.
TEST_F(FrameAttachments, AttachedParticlesFollowAThrownSpinningBody) {
    for (const auto& [method, path] : {std::pair{SolverMethod::Pbd, PbdPath::PerColour},
                                       std::pair{SolverMethod::Pbd, PbdPath::Clusters},
                                       std::pair{SolverMethod::Springs, PbdPath::PerColour},
                                       std::pair{SolverMethod::Pd, PbdPath::PerColour}}) {
        Scene scene = thrownBox(method);
        scene.solver.pbd.path = path;
        const SimModel model = buildModel(scene);
        ASSERT_EQ(model.frameAttachments.size(), 5u);
        GpuRun gpu(ctx(), model, scene.solver);
        double worst = 0.0, highest = 0.0, turned = 0.0;
        for (uint32_t frame = 0; frame < 20; ++frame) {
            gpu.frames(1);
            worst = std::max(worst, largestExcess(gpu, model, model.colliders));
            const gpu::RigidBodyState box = gpu.stepper().solver<RigidSolver>().readStates()[0];
            highest = std::max(highest, double(box.position.y));
            turned = std::max(turned, 2.0 * std::acos(std::min(1.0, std::abs(double(box.rotation.w)))));
        }
        std::printf("[attachments] %s%s: attached particles off their points of the spinning box by at most %.2e m "
                    "(the box rose to %.2f m and turned up to %.2f rad)\n",
                    methodName(method), path == PbdPath::Clusters ? " (clusters)" : "", worst, highest, turned);
        EXPECT_LT(worst, 1e-5) << methodName(method);
        EXPECT_GT(highest, 0.2) << "the box was thrown up";
        EXPECT_GT(turned, 1.0) << "the box spun";
    }
}

// With "maxDistance" r = 4 cm the row may move within r of its points, and
// does (the cloth's weight drags the row to the edge of its spheres), but
// never further. Measured on lavapipe: at most 1.0e-7 m past r; the row's
// mean distance at the end 4.00 cm. Bound: 1e-5 m past r (float rounding of the
// projection and the exchange, as above).
TEST_F(FrameAttachments, MotionConstraintsKeepParticlesInTheirSpheres) {
    const float r = 0.04f;
    const Scene scene = thrownBox(SolverMethod::Pbd, r);
    const SimModel model = buildModel(scene);
    GpuRun gpu(ctx(), model, scene.solver);
    double worst = -1.0, meanAtEnd = 0.0;
    for (uint32_t frame = 0; frame < 30; ++frame) {
        gpu.frames(1);
        worst = std::max(worst, largestExcess(gpu, model, model.colliders));
    }
    const std::vector<glm::vec4> x = gpu.positions();
    const std::vector<glm::dvec3> points = attachedPoints(gpu, model, model.colliders);
    for (size_t k = 0; k < points.size(); ++k)
        meanAtEnd += glm::length(xyz(x[model.frameAttachments[k].particle]) - points[k]) / double(points.size());
    std::printf("[attachments] motion constraints r = %.3f m: at most %.2e m past r; mean distance at the end %.4f m\n",
                r, worst, meanAtEnd);
    EXPECT_LT(worst, 1e-5);
    EXPECT_GT(meanAtEnd, 0.1 * r) << "the particles never moved within their spheres";
}

// The coupled step against the CPU reference in double precision (the
// bodies' substep, their colliders, the attachment projection with the
// pushes it records, the exchange after every PBD iteration and at the end
// of the substep), on the per-colour path (the reference's order), 20
// frames of the thrown box. Measured on lavapipe: PBD particles 1.7e-6 m,
// box 5.1e-7 m, 2.6e-6 rad; mass-spring 4.0e-5 m, 1.1e-6 m, 1.2e-5 rad; PD
// (60 Jacobi iterations against the reference's direct solve) 3.2e-4 m,
// 1.3e-6 m, 3.7e-5 rad; since the kinetic friction's normal is the push of
// the substep (docs/physics.md §3, "The normal push"), which for PD is the
// one projection after its Jacobi steps, PD 4.7e-4 m, 7.4e-6 m, 2.9e-4
// rad. Float rounding (and PD's unconverged Jacobi
// steps) grows over the frames: the cloth flaps behind a box that spins
// half a turn, and each step's difference is amplified by the next. Bounds:
// particles 1e-4 m (PD 1e-3 m), the box 1e-5 m and 1e-4 rad (PD 1e-3 rad).
TEST_F(FrameAttachments, GpuMatchesTheCoupledReference) {
    for (const SolverMethod method : {SolverMethod::Pbd, SolverMethod::Springs, SolverMethod::Pd}) {
        const Scene scene = thrownBox(method);
        const SimModel model = buildModel(scene);
        std::unique_ptr<ReferenceSimulation> cpu;
        if (method == SolverMethod::Pbd) cpu = std::make_unique<PbdReference>(model);
        else if (method == SolverMethod::Springs) cpu = std::make_unique<SpringReference>(model);
        else cpu = std::make_unique<PdReference>(model);
        GpuRun gpu(ctx(), model, scene.solver);
        RigidReference bodies(model);
        cpu->coupleBodies(bodies);
        double particles = 0.0, position = 0.0, rotation = 0.0;
        for (uint32_t frame = 1; frame <= 20; ++frame) {
            gpu.frames(1);
            cpu->step(scene.solver);
            particles = std::max(particles, largestDistance(gpu.positions(), cpu->positions()));
            const gpu::RigidBodyState box = gpu.stepper().solver<RigidSolver>().readStates()[0];
            const ReferenceBodyState& expected = bodies.states()[0];
            position = std::max(position, glm::length(xyz(box.position) - expected.position));
            const glm::dvec4 q = glm::dvec4(box.rotation), e = expected.rotation;
            rotation = std::max(rotation, 2.0 * std::acos(std::min(1.0, std::abs(glm::dot(q, e)) / glm::length(q))));
        }
        std::printf("[attachments] %s vs the CPU reference, 20 frames: particles %.2e m, box %.2e m, %.2e rad\n",
                    methodName(method), particles, position, rotation);
        EXPECT_LT(particles, method == SolverMethod::Pd ? 1e-3 : 1e-4) << methodName(method);
        EXPECT_LT(position, 1e-5) << methodName(method);
        EXPECT_LT(rotation, method == SolverMethod::Pd ? 1e-3 : 1e-4) << methodName(method);
    }
}

// Without gravity the box and the cloth attached to it exchange momentum
// and nothing else acts: their total linear momentum stays what it was. The
// body takes each attachment's move through the coupling's fixed-order
// gather, as it takes a contact's, so the drift is float rounding: bound
// 1e-4 of the 2.5 kg m/s thrown (as body_coupling_test.cpp's; measured
// 1.9e-6 of it). Two runs of the same scene give the same bits.
TEST_F(FrameAttachments, MomentumIsKeptAndRunsRepeat) {
    Scene scene = thrownBox(SolverMethod::Pbd);
    scene.solver.gravity = glm::vec3(0.0f);
    const SimModel model = buildModel(scene);
    auto momentum = [&](GpuRun& gpu) {
        glm::dvec3 total(0.0);
        const std::vector<glm::vec4> x = gpu.positions(), v = gpu.velocities();
        for (size_t i = 0; i < x.size(); ++i) total += xyz(v[i]) / double(x[i].w);
        const gpu::RigidBodyState box = gpu.stepper().solver<RigidSolver>().readStates()[0];
        return total + xyz(box.linearVelocity) / double(model.rigid.bodies[0].inverseMass);
    };
    GpuRun first(ctx(), model, scene.solver);
    const glm::dvec3 before = momentum(first);
    double drift = 0.0;
    for (int chunk = 0; chunk < 2; ++chunk) {
        first.frames(10);
        drift = std::max(drift, glm::length(momentum(first) - before));
    }
    std::printf("[attachments] zero gravity: |dP| %.2e kg m/s (%.1e of P)\n", drift, drift / glm::length(before));
    EXPECT_LT(drift, 1e-4 * glm::length(before));
    GpuRun second(ctx(), model, scene.solver);
    second.frames(20);
    const std::vector<glm::vec4> a = first.positions(), b = second.positions();
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec4)), 0) << "particles differ between runs";
    const std::vector<gpu::RigidBodyState> sa = first.stepper().solver<RigidSolver>().readStates(),
                                           sb = second.stepper().solver<RigidSolver>().readStates();
    EXPECT_EQ(std::memcmp(sa.data(), sb.data(), sa.size() * sizeof(gpu::RigidBodyState)), 0) << "bodies differ";
}

// A physical pendulum: a 1 kg box (0.2 m cube) hangs from a row of 5 pins
// by a cloth strip 2 cm long (2 rows: row 0 pinned, row 1 attached to the
// box 3 cm above its top face; 50 g free), and swings about the pins' line
// (x). The model: the strip is a massless link (its 50 g within 2 cm of the
// pivot add 0.1% to the box's I_pivot and 0.03% to m g d); the pivot is at
// the pins; small amplitude (0.09 rad). Then T = 2 pi sqrt(I_pivot / (m g d)),
// with d = 0.15 m from the pins to the centre of mass and
// I_pivot = m (s^2/6 + d^2) for a cube of side s. The strip hinges at both
// ends, so the exact small-angle model is a double pendulum of a massless
// link l = 2 cm and the box hinged a = 13 cm above its centre, whose slow
// mode's period is 0.4% longer (computed below, printed). The box starts
// with velocity only, as a rigid swing about the pins: its centre at
// 0.1 m/s along z. The period is measured between the first and the third
// upward zero crossings of the centre's z (two periods, interpolated
// linearly between frames of 1/30 s). The PBD link is not rigid: in each
// iteration the pins' distance constraints lift the attached row and the
// attachment pulls it back, moving the heavy box by only the row's share,
// so the link stretches until n such shares per substep carry the box's
// weight: about (M / m_row) g h^2 / n = 0.85 mm at 4 substeps of 8
// iterations, which lengthens the pendulum by some 0.3% (with a 10 g
// strip and h = 1/120 s it was 3.4%: the link's stiffness is the
// iterations'). Measured on lavapipe: T = 0.8902 s against 0.8882 s (double
// pendulum, 0.22%) and 0.8846 s (physical pendulum, 0.63%). Bounds: 1% of
// the double pendulum's, 2% of the physical pendulum's.
TEST_F(FrameAttachments, BoxHangingByAClothStripSwingsAsAPendulum) {
    const double side = 0.2, strip = 0.02, gap = 0.03, boxMass = 1.0, g = 9.81;
    Scene scene = clothScene({5, 2}, {float(side), float(strip)}, 0.0f);
    scene.path = "pendulum.json";
    ClothObject& cloth = scene.cloths[0];
    const float s = std::sqrt(0.5f);
    cloth.rotation = {s, 0.0f, 0.0f, s};  // local +Z to world -Y: row 0 on top
    cloth.position = glm::vec3(0.0f, -0.5f * float(strip), 0.0f);
    cloth.mass = 0.1f;
    cloth.bending.stiffness = 0.0f;
    ClothAttachment attachment;
    attachment.name = "box";
    attachment.source = "/objects/0/attachments/0";
    for (uint32_t c = 0; c < 5; ++c) {
        cloth.pinned.push_back({c, 0});
        attachment.vertices.push_back(5 + c);  // row 1
    }
    cloth.attachments.push_back(attachment);
    const double a = gap + 0.5 * side;  // from the attached row down to the centre
    const double d = strip + a;         // from the pins down to the centre
    const double v0 = 0.1;
    BodyDesc box;
    box.name = "box";
    box.source = "/bodies/0";
    box.shape = BodyShape::Box;
    box.halfExtents = glm::vec3(float(0.5 * side));
    box.mass = float(boxMass);
    box.position = glm::vec3(0.0f, float(-d), 0.0f);
    box.velocity = glm::vec3(0.0f, 0.0f, float(v0));
    box.angularVelocity = glm::vec3(float(-v0 / d), 0.0f, 0.0f);  // omega x (0, -d, 0) = (0, 0, v0)
    scene.bodies.push_back(box);
    scene.solver.gravity = glm::vec3(0.0f, float(-g), 0.0f);
    scene.solver.timeStep = 1.0f / 30.0f;
    scene.solver.substeps = 4;
    scene.solver.pbd.iterations = 8;
    scene.solver.pbd.path = PbdPath::PerColour;
    const SimModel model = buildModel(scene);
    ASSERT_EQ(model.frameAttachments.size(), 5u);

    // Closed forms. k2: the box's radius of gyration squared about x, s^2 / 6.
    const double k2 = side * side / 6.0;
    const double physical = 2.0 * M_PI * std::sqrt((k2 + d * d) / (g * d));
    // Massless link l and body hinged a above its centre, small angles:
    // det(K - w^2 M) = 0, M = [[l^2, l a], [l a, a^2 + k2]], K = g diag(l, a).
    const double l = strip;
    const double A = l * l * (a * a + k2) - l * l * a * a, B = -(g * l * (a * a + k2) + g * a * l * l),
                 C = g * g * l * a;
    const double slow = (-B - std::sqrt(B * B - 4.0 * A * C)) / (2.0 * A);  // the smaller w^2
    const double twoLink = 2.0 * M_PI / std::sqrt(slow);

    GpuRun gpu(ctx(), model, scene.solver);
    const double frame = double(scene.solver.timeStep);
    std::vector<double> crossings;
    double previous = 0.0;
    double widest = 0.0;
    for (uint32_t f = 1; f <= 120 && crossings.size() < 3; ++f) {
        gpu.frames(1);
        const double z = gpu.stepper().solver<RigidSolver>().readStates()[0].position.z;
        widest = std::max(widest, std::abs(z));
        if (f > 1 && previous < 0.0 && z >= 0.0) crossings.push_back(frame * (f - 1 + previous / (previous - z)));
        previous = z;
    }
    ASSERT_EQ(crossings.size(), 3u) << "the box did not swing two periods in 4 s";
    const double measured = (crossings[2] - crossings[0]) / 2.0;
    std::printf("[attachments] pendulum: T = %.4f s; physical pendulum %.4f s (%.2f%%), double pendulum %.4f s "
                "(%.2f%%); amplitude %.4f m\n",
                measured, physical, 100.0 * (measured / physical - 1.0), twoLink, 100.0 * (measured / twoLink - 1.0),
                widest);
    EXPECT_LT(std::abs(measured / twoLink - 1.0), 0.01);
    EXPECT_LT(std::abs(measured / physical - 1.0), 0.02);
}

// A cloth attached to a collider follows it when the collider is moved
// (World::setCollider, here the collider set's set(), between frames): one
// way, the collider feels nothing. A sphere carried 2 cm and turned 0.05 rad
// a frame for 20 frames; the attached row stays on its points. Measured:
// 3.6e-8 m. Bound 1e-5 m.
TEST_F(FrameAttachments, ClothFollowsAMovedCollider) {
    Scene scene = clothScene({5, 5}, {0.3f, 0.3f}, 0.5f);
    scene.path = "attachments.json";
    ColliderDesc sphere;
    sphere.name = "ball";
    sphere.shape = ColliderShape::Sphere;
    sphere.radius = 0.1f;
    sphere.position = glm::vec3(0.0f, 0.3f, -0.2f);
    scene.colliders.push_back(sphere);
    ClothAttachment attachment;
    attachment.target = AttachmentTarget::Collider;
    attachment.name = "ball";
    attachment.source = "/objects/0/attachments/0";
    for (uint32_t c = 0; c < 5; ++c) attachment.vertices.push_back(c);
    scene.cloths[0].attachments.push_back(attachment);
    scene.solver.pbd.path = PbdPath::PerColour;
    const SimModel model = buildModel(scene);
    GpuRun gpu(ctx(), model, scene.solver);
    double worst = 0.0;
    for (uint32_t frame = 1; frame <= 20; ++frame) {
        ColliderDesc moved = sphere;
        moved.position += glm::vec3(0.02f * float(frame), 0.01f * float(frame), 0.0f);
        const float angle = 0.05f * float(frame);
        moved.rotation = glm::vec4(0.0f, std::sin(angle / 2.0f), 0.0f, std::cos(angle / 2.0f));
        const std::vector<gpu::Collider> rows = {toCollider(moved)};
        gpu.stepper().colliders().set(rows);
        gpu.frames(1);
        worst = std::max(worst, largestExcess(gpu, model, rows));
    }
    std::printf("[attachments] cloth on a moved collider: attached particles off their points by at most %.2e m\n",
                worst);
    EXPECT_LT(worst, 1e-5);
}

}  // namespace
}  // namespace vksim::test
