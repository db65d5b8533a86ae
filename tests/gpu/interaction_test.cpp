// The simulation side of the viewer: picking a particle with a ray (a GPU
// ray cast), dragging it with the mouse attachment (PBD and projective
// dynamics), and releasing it; the per-iteration residuals computed on the
// GPU against the CPU; live parameter edits and reset.
#include <algorithm>
#include <cstring>
#include <cmath>
#include <iostream>
#include <tuple>

#include <fmt/format.h>

#include "../unit/pd_scenes.h"
#include "diagnostics/state_hash.h"
#include "gpu_harness.h"
#include "scene/scene_loader.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_materials.h"
#include "solvers/pbd/pbd_reference.h"
#include "solvers/pbd/pbd_solver.h"
#include "solvers/pd/pd_material_edit.h"
#include "solvers/pd/pd_materials.h"
#include "solvers/pd/pd_reference.h"
#include "solvers/pd/pd_solver.h"
#include "widened.h"
#include "world/world.h"
#include "world_frames.h"

namespace vksim::test {
namespace {

class Interaction : public GpuTest {};

void frames(VulkanContext& ctx, World& sim, uint32_t count) { runWorldFrames(ctx, sim, count); }

// 10 more frames of `sim` (just reset) end bit for bit where 10 frames of a
// new World of its (edited) scene do; `what` labels the printed hashes.
void expectTheFramesOfANewWorld(VulkanContext& ctx, World& sim, const std::string& what) {
    frames(ctx, sim, 10);
    World fresh(ctx, sim.scene(), 1);
    frames(ctx, fresh, 10);
    const uint64_t resetHash = hashPositions(sim.particles().readPositions());
    const uint64_t freshHash = hashPositions(fresh.particles().readPositions());
    std::cout << fmt::format("[live] {}, then reset, 10 frames: hash {}; a new World of the edited scene: {}\n", what,
                             formatHash(resetHash), formatHash(freshHash));
    EXPECT_EQ(resetHash, freshHash);
}

glm::vec3 position3(const glm::vec4& v) { return glm::vec3(v); }

// What `measure` reads off the CPU reference after a frame of k iterations
// from `start`, for k = 1..K (value k - 1).
template <typename Measure>
std::vector<double> cpuAfterIterations(const SimModel& start, const SolverSettings& solver, uint32_t K,
                                       Measure&& measure) {
    std::vector<double> values;
    for (uint32_t k = 1; k <= K; ++k) {
        PbdReference cpu(start);
        SolverSettings settings = solver;
        settings.pbd.iterations = k;
        cpu.step(settings);
        values.push_back(measure(cpu));
    }
    return values;
}

// The model with the simulation's current particle state, for the CPU references.
SimModel currentState(World& sim) {
    SimModel model = sim.model();
    model.positions = sim.particles().readPositions();
    model.velocities = sim.particles().readVelocities();
    return model;
}

// A 16 x 16 cloth, 1 m square at y = 1, pinned at the two corners of row 0.
Scene smallPbdCloth() {
    Scene scene = clothScene({16, 16}, {1.0f, 1.0f}, 1.0f);
    scene.cloths[0].pinned = {{0, 0}, {15, 0}};
    scene.solver.substeps = 2;
    scene.solver.pbd.iterations = 8;
    return scene;
}

// Mean and max relative stretch |(|x0 - x1| - d) / d| over the distance
// constraints of a model (those at `particle` only, when given).
std::pair<double, double> stretch(const SimModel& model, const std::vector<glm::vec4>& x,
                                  uint32_t particle = UINT32_MAX) {
    double sum = 0.0, worst = 0.0;
    size_t count = 0;
    for (const gpu::DistanceConstraint& c : model.pbd.distance) {
        if (particle != UINT32_MAX && c.p0 != particle && c.p1 != particle) continue;
        ++count;
        const double strain = (glm::distance(xyz(x[c.p0]), xyz(x[c.p1])) - c.restLength) /
                              c.restLength;
        sum += std::abs(strain);
        worst = std::max(worst, std::abs(strain));
    }
    return {count == 0 ? 0.0 : sum / double(count), worst};
}

TEST_F(Interaction, PickFindsTheParticleUnderTheRay) {
    World sim(ctx(), smallPbdCloth(), 1);
    const float spacing = 1.0f / 15.0f;
    const uint32_t target = 7 * 16 + 9;  // column 9, row 7
    const glm::vec3 p = sim.model().positions[target];
    // A ray from above, a fifth of a spacing off the vertex: it crosses a
    // triangle of which this vertex is the closest, so the pick is exact.
    const Ray down{p + glm::vec3(0.2f * spacing, 2.0f, 0.1f * spacing), {0.0f, -1.0f, 0.0f}};
    const std::optional<PickHit> hit = sim.pick(down);
    ASSERT_TRUE(hit);
    std::cout << fmt::format("[pick] ray above particle {}: picked {} on triangle {} at t = {:.6f}, point ({:.4f}, {:.4f}, {:.4f})\n",
                             target, hit->particle, hit->triangle, hit->distance, hit->point.x, hit->point.y,
                             hit->point.z);
    EXPECT_TRUE(hit->onTriangle);
    EXPECT_EQ(hit->particle, target);
    EXPECT_EQ(hit->object, 0u);
    EXPECT_NEAR(hit->distance, 2.0f, 1e-5f);

    // A slanted ray through a deformed cloth: after 20 frames the cloth
    // swings; a ray from a camera-like position to the read-back particle
    // hits it or, when the triangle it crosses first belongs to a fold in
    // front, a vertex of that triangle: the test accepts a particle within
    // one grid spacing of the aimed one along the cloth (grid distance <= 1).
    frames(ctx(), sim, 20);
    const std::vector<glm::vec4> x = sim.particles().readPositions();
    const glm::vec3 eye(1.5f, 2.5f, 2.0f);
    const std::optional<PickHit> slanted = sim.pick({eye, position3(x[target]) - eye});
    ASSERT_TRUE(slanted);
    const int dc = std::abs(int(slanted->particle % 16) - 9), dr = std::abs(int(slanted->particle / 16) - 7);
    std::cout << fmt::format("[pick] slanted ray at particle {} after 20 frames: picked {} (grid offset {}, {})\n",
                             target, slanted->particle, dc, dr);
    EXPECT_LE(std::max(dc, dr), 1);

    // No triangle on the ray: the particle nearest it within the radius.
    const glm::vec3 corner = x[16 * 15 + 15];
    const Ray beside{corner + glm::vec3(0.03f, 0.0f, 2.0f), {0.0f, 0.0f, -1.0f}};
    const std::optional<PickHit> near = sim.pick(beside, 0.05f);
    ASSERT_TRUE(near);
    std::cout << fmt::format("[pick] ray 3 cm beside corner particle {}: picked {} at {:.4f} m from the ray, on "
                             "a triangle: {}\n", 16 * 15 + 15, near->particle, near->distance, near->onTriangle);
    EXPECT_FALSE(near->onTriangle);
    EXPECT_EQ(near->particle, 16u * 15 + 15);
    EXPECT_FALSE(sim.pick({corner + glm::vec3(1.0f, 0.0f, 2.0f), {0.0f, 0.0f, -1.0f}}, 0.05f));

    EXPECT_THROW(sim.pick({glm::vec3(NAN), {0, -1, 0}}), std::invalid_argument);
    EXPECT_THROW(sim.pick({glm::vec3(0), glm::vec3(0)}), std::invalid_argument);
}

TEST_F(Interaction, DraggingPbdClothFollowsTheMouseAndReleaseLetsItFall) {
    // On the per-colour path, whose mouse drag is a pass of its own (counted
    // below); the workgroup path's drag is checked against it in
    // workgroup_solve_test.cpp.
    Scene scene = smallPbdCloth();
    scene.solver.pbd.path = PbdPath::PerColour;
    World sim(ctx(), scene, 1), undragged(ctx(), scene, 1);
    frames(ctx(), sim, 5);
    const uint32_t particle = 15 * 16 + 8;  // the middle of the free edge (row 15)
    const std::vector<glm::vec4> before = sim.particles().readPositions();
    const glm::vec3 target = position3(before[particle]) + glm::vec3(0.0f, 0.3f, 0.0f);
    const uint32_t neighbour = 14 * 16 + 8;
    const float neighbourBefore = glm::distance(position3(before[neighbour]), target);

    sim.drag(particle, target);
    frames(ctx(), sim, 30);
    const std::vector<glm::vec4> dragged = sim.particles().readPositions();
    const float error = glm::distance(position3(dragged[particle]), target);
    const float neighbourAfter = glm::distance(position3(dragged[neighbour]), target);
    const auto [meanStretch, maxStretch] = stretch(sim.model(), dragged);
    const double atMouse = stretch(sim.model(), dragged, particle).second;
    frames(ctx(), undragged, 35);
    const auto [meanUndragged, maxUndragged] = stretch(sim.model(), undragged.particles().readPositions());
    std::cout << fmt::format("[drag pbd] particle {} dragged 0.3 m up for 30 frames: {:.2e} m from the target; "
                             "neighbour {} from {:.4f} to {:.4f} m of the target; stretch mean {:.3f}%, max {:.3f}% "
                             "(undragged: {:.3f}%, {:.3f}%), at most {:.3f}% on the edges at the mouse\n",
                             particle, error, neighbour, neighbourBefore, neighbourAfter, 100 * meanStretch,
                             100 * maxStretch, 100 * meanUndragged, 100 * maxUndragged, 100 * atMouse);
    EXPECT_LT(error, 1e-4f);  // kinematic while dragged (no collider here): exactly on the target
    EXPECT_LT(neighbourAfter, neighbourBefore - 0.1f);
    // With 2 x 8 Gauss-Seidel iterations a stiffness-1 cloth under load
    // stretches by itself, most next to its supports (9% at the corner pins
    // undragged). The mouse lifts the free edge 0.3 m, above the pins, and
    // becomes the support of most of the cloth: the edges at it stretch as
    // at a pin with that load (17% measured; 65% with the attachment
    // projected after the coloured constraints instead of kinematic before
    // them), and the mean stays within a few times the undragged one.
    EXPECT_LT(meanStretch, 3.0 * meanUndragged);
    EXPECT_LT(atMouse, 0.25);

    // The timing report names the pass, once per iteration and substep.
    const TimingReport report = sim.timer().report(1);
    const auto mouse = std::find_if(report.passes.begin(), report.passes.end(),
                                    [](const PassTiming& p) { return p.name == "pbd: mouse drag"; });
    ASSERT_NE(mouse, report.passes.end());
    EXPECT_EQ(mouse->runsPerFrame, 16u);

    sim.release();
    frames(ctx(), sim, 10);
    const std::vector<glm::vec4> released = sim.particles().readPositions();
    std::cout << fmt::format("[drag pbd] 10 frames after release: particle {} at y = {:.4f} (held at {:.4f})\n",
                             particle, released[particle].y, dragged[particle].y);
    EXPECT_LT(released[particle].y, dragged[particle].y - 0.05f);

    EXPECT_THROW(sim.drag(sim.model().particleCount(), target), std::invalid_argument);
    EXPECT_THROW(sim.drag(0, glm::vec3(0.0f, NAN, 0.0f)), std::invalid_argument);
}

// The small cloth simulated with projective dynamics instead.
Scene smallPdCloth() {
    Scene scene = smallPbdCloth();
    scene.cloths[0].method = SolverMethod::Pd;
    scene.solver.pd.localIterations = 5;
    scene.solver.pd.jacobiIterations = 10;
    return scene;
}

TEST_F(Interaction, ReleaseRestoresTheStepExactly) {
    for (const Scene& scene : {smallPbdCloth(), smallPdCloth()}) {
        World plain(ctx(), scene, 1), touched(ctx(), scene, 1);
        frames(ctx(), plain, 3);
        frames(ctx(), touched, 1);
        touched.drag(100, glm::vec3(0.0f, 2.0f, 0.0f));
        touched.release();
        frames(ctx(), touched, 2);
        const uint64_t a = hashPositions(plain.particles().readPositions());
        const uint64_t b = hashPositions(touched.particles().readPositions());
        std::cout << fmt::format("[drag] {} cloth, drag + release before a frame: hash {} vs {} without\n",
                                 scene.cloths[0].method == SolverMethod::Pd ? "PD" : "PBD", formatHash(b),
                                 formatHash(a));
        EXPECT_EQ(a, b);
    }
}

TEST_F(Interaction, DraggingPdClothFollowsTheMouse) {
    World sim(ctx(), smallPdCloth(), 1);
    frames(ctx(), sim, 5);
    const uint32_t particle = 15 * 16 + 8, neighbour = 14 * 16 + 8;
    std::vector<glm::vec4> x = sim.particles().readPositions();
    const glm::vec3 eye(0.3f, 2.5f, 1.5f);
    const std::optional<PickHit> hit = sim.pick({eye, position3(x[particle]) - eye});
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->particle, particle);
    const glm::vec3 target = position3(x[particle]) + glm::vec3(0.0f, 0.3f, 0.0f);
    const float neighbourBefore = glm::distance(position3(x[neighbour]), target);
    sim.drag(particle, target);
    frames(ctx(), sim, 30);
    x = sim.particles().readPositions();
    const float error = glm::distance(position3(x[particle]), target);
    double meanStretch = 0.0, maxStretch = 0.0;  // over the PD springs
    for (const gpu::PdSpring& spring : sim.model().pd.springs) {
        const double strain =
            std::abs(glm::distance(xyz(x[spring.p0]), xyz(x[spring.p1])) - spring.restLength) /
            spring.restLength;
        meanStretch += strain / double(sim.model().pd.springs.size());
        maxStretch = std::max(maxStretch, strain);
    }
    std::cout << fmt::format("[drag pd cloth] picked {}, dragged 0.3 m up for 30 frames: {:.2e} m from the target; "
                             "neighbour from {:.4f} to {:.4f} m of it; stretch mean {:.3f}%, max {:.3f}%\n",
                             hit->particle, error, neighbourBefore, glm::distance(position3(x[neighbour]), target),
                             100 * meanStretch, 100 * maxStretch);
    EXPECT_LT(error, 0.01f);
    EXPECT_LT(glm::distance(position3(x[neighbour]), target), neighbourBefore - 0.1f);
    EXPECT_LT(meanStretch, 0.05);
    sim.release();
    frames(ctx(), sim, 10);
    const float fallen = sim.particles().readPositions()[particle].y;
    std::cout << fmt::format("[drag pd cloth] 10 frames after release: y = {:.4f} (held at {:.4f})\n", fallen,
                             x[particle].y);
    EXPECT_LT(fallen, x[particle].y - 0.05f);
}

TEST_F(Interaction, DraggingPdBarTipFollowsTheMouse) {
    Scene scene = loadScene(sourcePath("scenes/pd_bar.json"));
    World sim(ctx(), scene, 1);
    frames(ctx(), sim, 5);
    const SimModel& model = sim.model();
    std::vector<glm::vec4> x = sim.particles().readPositions();
    // The tip: the particle of largest x, then largest y, then smallest |z|.
    uint32_t tip = model.pd.firstParticle;
    for (uint32_t i = model.pd.firstParticle; i < model.particleCount(); ++i) {
        const glm::vec3 a = model.positions[i], b = model.positions[tip];
        if (std::tie(a.x, a.y) > std::tie(b.x, b.y) || (a.x == b.x && a.y == b.y && std::abs(a.z) < std::abs(b.z)))
            tip = i;
    }
    // Picked from above, a little inwards: the top face's triangle there has
    // the tip as its closest vertex or, on a tie of the diagonal, a vertex one
    // cell (0.2 m x 0.15 m) away: accepted within one cell.
    const glm::vec3 aim = position3(x[tip]) + glm::vec3(-0.02f, 1.0f, 0.01f);
    const std::optional<PickHit> hit = sim.pick({aim, {0.0f, -1.0f, 0.0f}});
    ASSERT_TRUE(hit);
    const float pickedOff = glm::distance(position3(x[hit->particle]), position3(x[tip]));
    std::cout << fmt::format("[drag pd] tip particle {}: picked {} ({:.3f} m from it), object '{}'\n", tip,
                             hit->particle, pickedOff, model.objects[hit->object].name);
    EXPECT_LE(pickedOff, 0.21f);
    EXPECT_EQ(hit->particle, tip);

    const glm::vec3 target = position3(x[tip]) + glm::vec3(0.0f, 0.3f, 0.0f);
    // A neighbour one cell in from the tip.
    uint32_t neighbour = tip;
    float best = 1e9f;
    for (uint32_t i = model.pd.firstParticle; i < model.particleCount(); ++i) {
        const float d = glm::distance(position3(x[i]), position3(x[tip]) - glm::vec3(0.2f, 0.0f, 0.0f));
        if (d < best) best = d, neighbour = i;
    }
    const float neighbourY = x[neighbour].y;
    sim.drag(tip, target);
    frames(ctx(), sim, 40);
    x = sim.particles().readPositions();
    const float error = glm::distance(position3(x[tip]), target);
    double worstEdge = 0.0;
    for (size_t t = 0; t < model.triangles.size(); t += 3)
        for (int e = 0; e < 3; ++e) {
            const uint32_t a = model.triangles[t + e], b = model.triangles[t + (e + 1) % 3];
            const double rest = glm::distance(xyz(model.positions[a]), xyz(model.positions[b]));
            const double now = glm::distance(xyz(x[a]), xyz(x[b]));
            worstEdge = std::max(worstEdge, std::abs(now - rest) / rest);
        }
    std::cout << fmt::format("[drag pd] tip dragged 0.3 m up for 40 frames: {:.2e} m from the target; neighbour "
                             "{} rose {:.3f} m; surface edges within {:.2f}% of rest length\n",
                             error, neighbour, x[neighbour].y - neighbourY, 100 * worstEdge);
    EXPECT_LT(error, 0.01f);
    EXPECT_GT(x[neighbour].y - neighbourY, 0.1f);
    EXPECT_LT(worstEdge, 0.10);

    sim.release();
    const float heldY = x[tip].y;
    frames(ctx(), sim, 10);
    x = sim.particles().readPositions();
    std::cout << fmt::format("[drag pd] 10 frames after release: tip at y = {:.4f} (held at {:.4f})\n", x[tip].y,
                             heldY);
    EXPECT_LT(x[tip].y, heldY - 0.02f);
}

// The GPU's per-iteration mean |C| against the CPU double reference: from
// one read-back state, the GPU runs one frame (1 substep, K iterations) with
// tracking on, the CPU runs the same frame with k = 1..K iterations and
// reports mean |C| after it. With stiffness 1 (k' = 1 for any n_s) the first
// k iterations of a K-iteration step are exactly a k-iteration step, so value
// k of the GPU series is the CPU's k-iteration residual, up to float rounding
// of the positions. The last GPU value is the frame's final state: it is also
// checked against the same mean computed on the CPU from the read-back positions.
TEST_F(Interaction, PbdResidualPerIterationMatchesTheCpuReference) {
    Scene scene = smallPbdCloth();
    scene.solver.substeps = 1;
    const uint32_t K = 8;
    scene.solver.pbd.iterations = K;
    World sim(ctx(), scene, 1);
    frames(ctx(), sim, 5);  // a moving, stretched state
    EXPECT_TRUE(sim.lastResidualPerIteration().empty());

    const SimModel start = currentState(sim);
    sim.setResidualTracking(true);
    frames(ctx(), sim, 1);
    const std::vector<float> gpu = sim.lastResidualPerIteration();
    ASSERT_EQ(gpu.size(), K);
    const std::vector<glm::vec4> after = sim.particles().readPositions();
    double finalCpu = 0.0;
    for (const gpu::DistanceConstraint& c : start.pbd.distance)
        finalCpu += std::abs(glm::distance(xyz(after[c.p0]), xyz(after[c.p1])) - c.restLength);
    finalCpu /= double(start.pbd.distance.size());

    const std::vector<double> cpu =
        cpuAfterIterations(start, scene.solver, K, [](const PbdReference& ref) { return ref.distanceResidual(); });
    double worst = 0.0;
    std::string line;
    for (uint32_t k = 1; k <= K; ++k) {
        worst = std::max(worst, std::abs(gpu[k - 1] - cpu[k - 1]));
        line += fmt::format(" {}: {:.4e}/{:.4e}", k, gpu[k - 1], cpu[k - 1]);
    }
    std::cout << fmt::format("[residual pbd] mean |C| [m] per iteration, GPU/CPU double:{}\n", line);
    std::cout << fmt::format("[residual pbd] largest GPU - CPU difference {:.2e} m; final state: GPU {:.6e}, CPU on "
                             "the read-back positions {:.6e} (relative {:.1e})\n",
                             worst, gpu.back(), finalCpu, std::abs(gpu.back() - finalCpu) / finalCpu);
    // Positions near 1 m carry float rounding of ~6e-8 m per coordinate and
    // per pass; over one step the trajectories drift apart by ~1e-7 m, so
    // mean |C| agrees to ~1e-6 m (the residuals are ~1e-4 m).
    EXPECT_LT(worst, 2e-6);
    // Same positions: only the float |C| (~1e-8 m each) and the float sum differ.
    EXPECT_NEAR(gpu.back(), finalCpu, 1e-5 * finalCpu + 1e-8);

    // A pass of its own, recorded once per iteration; none when off.
    const TimingReport on = sim.timer().report(1);
    const auto residual = std::find_if(on.passes.begin(), on.passes.end(),
                                       [](const PassTiming& p) { return p.name == "pbd: residual: stretch |C|"; });
    ASSERT_NE(residual, on.passes.end());
    EXPECT_EQ(residual->runsPerFrame, K);
    sim.setResidualTracking(false);
    frames(ctx(), sim, 1);
    const TimingReport off = sim.timer().report(1);
    for (const PassTiming& p : off.passes) EXPECT_EQ(p.name.find("residual"), std::string::npos) << p.name;

    // Deterministic: the same frame from the same state gives the same bits.
    World again(ctx(), scene, 1);
    frames(ctx(), again, 5);
    again.setResidualTracking(true);
    frames(ctx(), again, 1);
    EXPECT_EQ(again.lastResidualPerIteration(), gpu);
}

// The XPBD energy after each iteration against the CPU double reference,
// as the PBD residual above: value k of the GPU series is the objective
// after a k-iteration step from the same state (XPBD iterations do not
// depend on the iteration count), and the last value the objective on the
// read-back final positions. Every family is XPBD: stretch, bending and the
// two pins as soft attachments.
TEST_F(Interaction, XpbdEnergyPerIterationMatchesTheCpuReference) {
    Scene scene = smallPbdCloth();
    scene.solver.substeps = 1;
    const uint32_t K = 8;
    scene.solver.pbd.iterations = K;
    ClothObject& cloth = scene.cloths[0];
    cloth.pinsAsAttachments = true;
    cloth.stretch = {.model = ConstraintModel::Xpbd, .compliance = 1e-6f};
    cloth.bending = {.model = ConstraintModel::Xpbd, .compliance = 1e-2f};
    cloth.attachment = {.model = ConstraintModel::Xpbd, .compliance = 1e-7f};
    World sim(ctx(), scene, 1);
    ASSERT_TRUE(sim.solver<PbdSolver>().constraints().xpbdEnergyDefined());
    frames(ctx(), sim, 5);
    const SimModel start = currentState(sim);
    sim.setResidualTracking(true);
    frames(ctx(), sim, 1);
    const std::vector<float> gpu = sim.lastPbdEnergyPerIteration();
    ASSERT_EQ(gpu.size(), K);

    const double h = scene.solver.timeStep;
    const std::vector<glm::dvec3> predicted = PbdReference(start).predictedPositions(scene.solver);
    const std::vector<double> cpu = cpuAfterIterations(
        start, scene.solver, K, [&](const PbdReference& ref) { return ref.xpbdObjective(predicted, h).value(); });
    double worst = 0.0;
    std::string line;
    for (uint32_t k = 1; k <= K; ++k) {
        worst = std::max(worst, std::abs(gpu[k - 1] - cpu[k - 1]) / cpu[k - 1]);
        line += fmt::format(" {}: {:.5e}/{:.5e}", k, gpu[k - 1], cpu[k - 1]);
    }
    SimModel after = start;
    after.positions = sim.particles().readPositions();
    const double finalCpu = PbdReference(after).xpbdObjective(predicted, h).value();
    std::cout << fmt::format("[energy xpbd] g(p) [J] per iteration, GPU/CPU double:{}\n", line);
    std::cout << fmt::format("[energy xpbd] largest relative difference {:.2e}; final state: GPU {:.6e}, CPU on the "
                             "read-back positions {:.6e}\n", worst, gpu.back(), finalCpu);
    // The trajectories differ by float rounding (~1e-7 m over a step); the
    // energy is dominated by the larger |C| (~1e-3 m), which that moves by
    // ~1e-4 relative at most (measured 5.4e-6).
    EXPECT_LT(worst, 1e-4);
    // Same positions: only the float evaluation and sum differ (measured 2e-7).
    EXPECT_NEAR(gpu.back(), finalCpu, 1e-5 * finalCpu);

    // A PBD-mode family has no energy: no pass, no series.
    World pbd(ctx(), smallPbdCloth(), 1);
    EXPECT_FALSE(pbd.solver<PbdSolver>().constraints().xpbdEnergyDefined());
    pbd.setResidualTracking(true);
    frames(ctx(), pbd, 1);
    EXPECT_TRUE(pbd.lastPbdEnergyPerIteration().empty());
    EXPECT_FALSE(pbd.lastResidualPerIteration().empty());
}

// The PD residual ||b - A q||_2 of the last global step against the same
// quantity computed on the CPU (double) from the read-back state: the
// right-hand side the last gather wrote, q = the positions after the frame
// (no colliders, so x = q), s from the state before it.
TEST_F(Interaction, PdResidualMatchesTheCpuOnReadBackState) {
    Scene scene = loadScene(sourcePath("scenes/pd_bar.json"));
    scene.colliders.clear();
    World sim(ctx(), scene, 1);
    frames(ctx(), sim, 3);
    const std::vector<glm::vec4> x0 = sim.particles().readPositions(), v0 = sim.particles().readVelocities();
    sim.setResidualTracking(true);
    frames(ctx(), sim, 1);
    const std::vector<float> gpu = sim.lastPdResidualPerIteration();
    ASSERT_EQ(gpu.size(), scene.solver.pd.localIterations);
    EXPECT_TRUE(sim.lastResidualPerIteration().empty());  // no PBD particles
    const std::vector<glm::vec4> q = sim.particles().readPositions();
    const std::vector<glm::vec4> rhs = sim.solver<PdSolver>().readRhs();
    const PdModel& pd = sim.solver<PdSolver>().model();
    const double h = scene.solver.timeStep / scene.solver.substeps;
    const glm::vec3 g = scene.solver.gravity;
    double sum = 0.0;
    for (uint32_t r = 0; r < pd.particleCount; ++r) {
        const uint32_t i = pd.firstParticle + r;
        const gpu::PdRow& row = pd.rows[r];
        if (row.mass == 0.0f) continue;
        const glm::vec3 v = position3(v0[i]) + float(h) * g;  // predict's velocity, in float as on the GPU
        const glm::dvec3 s = xyz(x0[i]) + h * glm::dvec3(v);
        const glm::dvec3 qi(position3(q[i]));
        glm::dvec3 res = double(row.mass) / (h * h) * (s - qi) + xyz(rhs[i]) - double(rhs[i].w) * qi;
        for (uint32_t k = row.offDiagonalFirst; k < row.offDiagonalFirst + row.offDiagonalCount; ++k)
            res += double(pd.offDiagonal[k].value) * (qi - xyz(q[pd.offDiagonal[k].column]));
        sum += glm::dot(res, res);
    }
    const double cpu = std::sqrt(sum);
    std::string line;
    for (float value : gpu) line += fmt::format(" {:.4e}", value);
    std::cout << fmt::format("[residual pd] ||b - Aq|| [N] per local/global iteration:{}\n", line);
    std::cout << fmt::format("[residual pd] last: GPU {:.6e}, CPU double on the read-back state {:.6e} (relative "
                             "{:.2e})\n", gpu.back(), cpu, std::abs(gpu.back() - cpu) / cpu);
    // r is a difference of terms ~1e3-1e4 N computed in float on the GPU
    // (rounding ~1e-3 N each) against a residual norm of order 1 N or more.
    EXPECT_NEAR(gpu.back(), cpu, 0.02 * cpu + 1e-3);
}

// A scene with every projective dynamics element family: a cloth (springs,
// triangle strain, bending, its two pins as attachments) and a bar (tet
// strain and volume, one face pinned hard). No colliders unless added.
Scene pdEveryFamilyScene() {
    Scene scene = pdClothScene({8, 8});
    scene.cloths[0].pinsAsAttachments = true;
    scene.solids = pdBarScene({4, 1, 1}, {0.8f, 0.2f, 0.2f}).solids;
    scene.solids[0].volume.enabled = true;
    scene.solids[0].volume.rangeMin = 0.99f;
    scene.solids[0].volume.rangeMax = 1.01f;
    scene.solids[0].position = {0.0f, 0.0f, 0.0f};
    scene.solver.pd.localIterations = 6;
    scene.solver.pd.jacobiIterations = 60;
    return scene;
}

// The PD energy series against the CPU (double) objective on read-back
// iterates. The GPU runs a frame of L local/global iterations with tracking
// on; value l is g(q^l). The iterates themselves are the positions after a
// frame of l iterations from the same state (deterministic, no colliders, so
// x = q^l); the CPU evaluates g at them, with s predicted in double.
TEST_F(Interaction, PdEnergyPerIterationMatchesTheCpuOnReadBackIterates) {
    const Scene scene = pdEveryFamilyScene();
    const uint32_t L = scene.solver.pd.localIterations;
    // A moving, deformed state: 4 frames from rest.
    auto simulationAt4 = [&] {
        auto sim = std::make_unique<World>(ctx(), scene, 1);
        frames(ctx(), *sim, 4);
        return sim;
    };
    std::unique_ptr<World> sim = simulationAt4();
    const SimModel start = currentState(*sim);
    sim->setResidualTracking(true);
    frames(ctx(), *sim, 1);
    const std::vector<float> gpu = sim->lastPdEnergyPerIteration();
    ASSERT_EQ(gpu.size(), L + 1);

    const PdReference reference(start);
    const std::vector<glm::dvec3> s = reference.predictedPositions(scene.solver);
    double worst = 0.0;
    std::string line;
    for (uint32_t l = 0; l <= L; ++l) {
        std::vector<glm::dvec3> q = s;
        if (l > 0) {
            std::unique_ptr<World> partial = simulationAt4();
            partial->scene().solver.pd.localIterations = l;
            frames(ctx(), *partial, 1);
            const std::vector<glm::vec4> x = partial->particles().readPositions();
            for (size_t i = 0; i < x.size(); ++i) q[i] = xyz(x[i]);
        }
        const double cpu = reference.objective(q, s, scene.solver);
        worst = std::max(worst, std::abs(gpu[l] - cpu) / cpu);
        line += fmt::format(" {}: {:.6e}/{:.6e}", l, gpu[l], cpu);
    }
    std::cout << fmt::format("[energy pd] g(q^l) [J], GPU/CPU double:{}\n", line);
    std::cout << fmt::format("[energy pd] largest relative difference {:.2e}\n", worst);
    // The same iterates on both sides: what differs is float rounding of s
    // (positions near 1 m, ~6e-8 m) and of each term against displacements
    // |q - s| and strains of ~1e-3, ~1e-5 relative at worst (measured 1.6e-6).
    EXPECT_LT(worst, 1e-4);
    // Local/global alternation never increases g with an exact global step
    // (Bouaziz et al. 2014, section 4); 60 Chebyshev Jacobi iterations leave
    // a global residual far below the decrease of each step here.
    for (uint32_t l = 1; l <= L; ++l) EXPECT_LE(gpu[l], gpu[l - 1]) << "iteration " << l;
    EXPECT_LT(gpu[L], gpu[0]);

    // Its passes run only while tracking; the energy's extra local step is
    // timed as "pd: energy".
    const TimingReport on = sim->timer().report(1);
    const auto energy = std::find_if(on.passes.begin(), on.passes.end(),
                                     [](const PassTiming& p) { return p.name == "pd: energy"; });
    ASSERT_NE(energy, on.passes.end());
    EXPECT_GT(energy->runsPerFrame, L + 1);
    double trackingMs = 0.0;
    for (const PassTiming& p : on.passes)
        if (p.name == "pd: energy" || p.name.find("residual") != std::string::npos) trackingMs += p.medianMs;
    std::cout << fmt::format("[energy pd] tracking passes (energy, residual, sums) {:.2f} ms of a {:.2f} ms step "
                             "(one frame, lavapipe: a rough figure)\n", trackingMs, on.step.medianMs);
}

// Tracking the energy runs one more local step per frame; it must not change
// the simulation, collisions included (its touching bits and collision
// targets). The energy at q^0 = s includes the collision projections of
// the particles s puts inside the collider: checked against the CPU.
TEST_F(Interaction, PdEnergyTrackingLeavesTheSimulationUnchangedAndCountsCollisions) {
    Scene scene = pdEveryFamilyScene();
    scene.colliders.push_back(
        {.name = "sphere", .shape = ColliderShape::Sphere, .position = {0.0f, 0.55f, 0.0f}, .radius = 0.3f});
    World tracked(ctx(), scene, 1), untracked(ctx(), scene, 1);
    tracked.setResidualTracking(true);
    frames(ctx(), tracked, 20);
    frames(ctx(), untracked, 20);
    const SimModel start = currentState(tracked);
    EXPECT_TRUE(start.positions == untracked.particles().readPositions() &&
                start.velocities == untracked.particles().readVelocities());

    const PdReference reference(start);
    const std::vector<glm::dvec3> s = reference.predictedPositions(scene.solver);
    SolverSettings noCollisions = scene.solver;
    noCollisions.collisionMargin = -1e9f;  // no candidates: g without the collision term
    const double cpu = reference.objective(s, s, scene.solver);
    const double withoutCollisions = reference.objective(s, s, noCollisions);
    frames(ctx(), tracked, 1);
    frames(ctx(), untracked, 1);
    const std::vector<float> gpu = tracked.lastPdEnergyPerIteration();
    ASSERT_EQ(gpu.size(), scene.solver.pd.localIterations + 1);
    std::cout << fmt::format("[energy pd] cloth and bar on a sphere: g(s) GPU {:.6e} J, CPU {:.6e} J (collision "
                             "term {:.3e} J); g(q^L) {:.6e} J\n",
                             gpu[0], cpu, cpu - withoutCollisions, gpu.back());
    EXPECT_GT(cpu - withoutCollisions, 0.01 * cpu);  // the scene does collide at s
    EXPECT_NEAR(gpu[0], cpu, 1e-4 * cpu);  // as above
    EXPECT_LT(gpu.back(), gpu[0]);
    EXPECT_TRUE(tracked.particles().readPositions() == untracked.particles().readPositions() &&
                tracked.particles().readVelocities() == untracked.particles().readVelocities());
}

TEST_F(Interaction, LiveParametersTakeEffectAndResetReproducesAFreshRun) {
    // Stretch stiffness: lower it after 5 frames, the cloth stretches more.
    {
        World stiff(ctx(), smallPbdCloth(), 1), soft(ctx(), smallPbdCloth(), 1);
        frames(ctx(), stiff, 5);
        frames(ctx(), soft, 5);
        ConstraintParams params = soft.scene().cloths[0].stretch;
        params.stiffness = 0.05f;
        soft.edit(PbdMaterialEdit{0, ConstraintFamily::Stretch, params});
        EXPECT_EQ(soft.scene().cloths[0].stretch.stiffness, 0.05f);
        frames(ctx(), stiff, 20);
        frames(ctx(), soft, 20);
        const double a = stretch(stiff.model(), stiff.particles().readPositions()).first;
        const double b = stretch(soft.model(), soft.particles().readPositions()).first;
        std::cout << fmt::format("[live] mean stretch after 25 frames: {:.3f}% at stiffness 1, {:.3f}% after "
                                 "lowering it to 0.05 at frame 5\n", 100 * a, 100 * b);
        EXPECT_GT(b, 2 * a);
        params.enabled = false;
        EXPECT_THROW(soft.edit(PbdMaterialEdit{0, ConstraintFamily::Stretch, params}), std::invalid_argument);
        params.enabled = true;
        params.stiffness = 2.0f;
        EXPECT_THROW(soft.edit(PbdMaterialEdit{0, ConstraintFamily::Stretch, params}), std::invalid_argument);
        EXPECT_THROW(soft.edit(PbdMaterialEdit{3, ConstraintFamily::Stretch, params}), std::invalid_argument);
    }
    // Gravity (scene().solver, read every frame): reversed, the cloth rises.
    {
        World sim(ctx(), smallPbdCloth(), 1);
        frames(ctx(), sim, 3);
        const float y = sim.particles().readPositions()[15 * 16 + 8].y;
        sim.scene().solver.gravity = glm::vec3(0.0f, 9.81f, 0.0f);
        frames(ctx(), sim, 10);
        const float risen = sim.particles().readPositions()[15 * 16 + 8].y;
        std::cout << fmt::format("[live] gravity reversed at frame 3: free edge from y = {:.4f} to {:.4f}\n", y, risen);
        EXPECT_GT(risen, y + 0.05f);
    }
    // Collider: a free cloth falls onto a ball on the ground and drapes over
    // it; with the ball moved away (x = 3 m) after the first frame, it lies
    // flat on the ground instead.
    Scene draped = clothScene({12, 12}, {1.0f, 1.0f}, 1.2f);
    draped.solver.substeps = 2;
    draped.solver.pbd.iterations = 4;
    ColliderDesc ball;
    ball.name = "ball";
    ball.shape = ColliderShape::Sphere;
    ball.position = glm::vec3(0.0f, 0.4f, 0.0f);
    ball.radius = 0.4f;
    ball.thickness = 0.01f;
    ball.friction = 0.4f;
    ColliderDesc ground;
    ground.name = "ground";
    ground.friction = 0.4f;
    draped.colliders = {ball, ground};
    auto highest = [](const std::vector<glm::vec4>& x) {
        float y = -1e9f;
        for (const glm::vec4& p : x) y = std::max(y, p.y);
        return y;
    };
    World still(ctx(), draped, 1), moved(ctx(), draped, 1);
    frames(ctx(), still, 1);
    frames(ctx(), moved, 1);
    ColliderDesc shifted = moved.scene().colliders[0];
    shifted.position.x = 3.0f;
    moved.setCollider(0, shifted);
    EXPECT_EQ(moved.scene().colliders[0].position.x, 3.0f);
    frames(ctx(), still, 40);
    frames(ctx(), moved, 40);
    const float a = highest(still.particles().readPositions()), b = highest(moved.particles().readPositions());
    std::cout << fmt::format("[live] highest cloth particle after 41 frames: y = {:.4f} m over the ball (top at "
                             "0.81 m), {:.4f} m with the ball moved away after frame 1\n", a, b);
    EXPECT_GT(a, 0.75f);
    EXPECT_LT(b, 0.05f);
    ColliderDesc box = shifted;
    box.shape = ColliderShape::Box;
    EXPECT_THROW(moved.setCollider(0, box), std::invalid_argument);
    EXPECT_THROW(moved.setCollider(1, shifted), std::invalid_argument);

    // Reset: back to the initial state with the current parameters; the next
    // frames are bit for bit those of a new World of scene().
    moved.drag(5, glm::vec3(0.0f, 2.0f, 0.0f));
    frames(ctx(), moved, 2);
    moved.reset();
    EXPECT_FALSE(moved.dragged());
    expectTheFramesOfANewWorld(ctx(), moved, "ball moved, a drag");
}

// PBD's per-iteration stiffness k' = 1 - (1 - k)^(1/n_s) is computed once
// per material on the GPU (pbd/iteration_stiffness.comp), again whenever
// n_s or a material changes. Both edited live, then a reset: the next frames
// are bit for bit those of a new World of the edited scene. A k' left from
// 8 iterations, or the 0 a material upload writes there, would differ
// (with k = 1, k' = 1 for every n_s, so the stiffnesses here are below 1).
TEST_F(Interaction, IterationStiffnessFollowsLiveIterationAndMaterialEdits) {
    Scene scene = smallPbdCloth();
    scene.cloths[0].stretch.stiffness = 0.5f;
    scene.solver.pbd.iterations = 8;
    World sim(ctx(), scene, 1);
    frames(ctx(), sim, 3);
    ConstraintParams bending = sim.scene().cloths[0].bending;
    bending.stiffness = 0.3f;
    sim.edit(PbdMaterialEdit{0, ConstraintFamily::Bending, bending});
    frames(ctx(), sim, 3);
    sim.scene().solver.pbd.iterations = 3;
    frames(ctx(), sim, 3);
    sim.reset();
    expectTheFramesOfANewWorld(ctx(), sim, "bending 0.3 and n_s 8 -> 3");
}

// Lowest y over the particles of a model's first solid (its sagging tip).
float lowestSolidY(const World& sim) {
    const ObjectRange& solid = sim.model().objects.back();
    const std::vector<glm::vec4> x = const_cast<World&>(sim).particles().readPositions();
    float lowest = INFINITY;
    for (uint32_t i = solid.firstParticle; i < solid.firstParticle + solid.particleCount; ++i)
        lowest = std::min(lowest, x[i].y);
    return lowest;
}

// Projective dynamics stiffness is live: a softer bar sags more, and the
// edited model is the one a new World of the edited scene builds, bit
// for bit (weights, ranges, matrix rows), so reset reproduces a fresh run.
TEST_F(Interaction, PdMaterialsAreLiveAndMatchAFreshBuild) {
    const Scene scene = loadScene(sourcePath("scenes/pd_bar.json"));
    const PdOwner bar{PdOwner::Kind::Solid, 0};
    World stiff(ctx(), scene, 1), soft(ctx(), scene, 1);
    frames(ctx(), stiff, 5);
    frames(ctx(), soft, 5);
    PdParams strain = scene.solids[0].strain;
    strain.stiffness /= 20.0f;
    soft.edit(PdMaterialEdit{bar, PdFamily::TetStrain, strain});
    EXPECT_EQ(soft.scene().solids[0].strain.stiffness, strain.stiffness);
    frames(ctx(), stiff, 40);
    frames(ctx(), soft, 40);
    const float stiffY = lowestSolidY(stiff), softY = lowestSolidY(soft);
    std::cout << fmt::format("[live pd] lowest point of the bar after 45 frames: {:.4f} m at strain stiffness {:.3g} "
                             "Pa, {:.4f} m after lowering it to {:.3g} Pa at frame 5\n",
                             stiffY, scene.solids[0].strain.stiffness, softY, strain.stiffness);
    EXPECT_LT(softY, stiffY - 0.02f);

    // The same model as a build of the edited scene.
    const SimModel fresh = buildModel(soft.scene());
    auto sameBits = [](const auto& a, const auto& b) {
        return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0;
    };
    EXPECT_TRUE(sameBits(soft.model().pd.tetStrain, fresh.pd.tetStrain));
    EXPECT_TRUE(sameBits(soft.model().pd.tetVolume, fresh.pd.tetVolume));
    EXPECT_TRUE(sameBits(soft.model().pd.rows, fresh.pd.rows));
    EXPECT_TRUE(sameBits(soft.model().pd.offDiagonal, fresh.pd.offDiagonal));
    soft.reset();
    World rebuilt(ctx(), soft.scene(), 1);
    frames(ctx(), soft, 10);
    frames(ctx(), rebuilt, 10);
    EXPECT_TRUE(soft.particles().readPositions() == rebuilt.particles().readPositions());

    // Bad edits change nothing.
    PdParams bad = strain;
    bad.enabled = false;
    EXPECT_THROW(soft.edit(PdMaterialEdit{bar, PdFamily::TetStrain, bad}), std::invalid_argument);
    bad = strain;
    bad.stiffness = -1.0f;
    EXPECT_THROW(soft.edit(PdMaterialEdit{bar, PdFamily::TetStrain, bad}), std::invalid_argument);
    bad = strain;
    bad.rangeMin = std::nanf("");
    EXPECT_THROW(soft.edit(PdMaterialEdit{bar, PdFamily::TetStrain, bad}), std::invalid_argument);
    EXPECT_THROW(soft.edit(PdMaterialEdit{bar, PdFamily::Springs, strain}), std::invalid_argument);
    EXPECT_THROW(soft.edit(PdMaterialEdit{{PdOwner::Kind::Solid, 1}, PdFamily::TetStrain, strain}),
                 std::invalid_argument);
    EXPECT_EQ(soft.scene().solids[0].strain.stiffness, strain.stiffness);

    // With a fixed relaxation, stiffening can push gamma mu_max past 2: refused, nothing changes.
    const double muStiff = stiff.solver<PdSolver>().jacobiParameters(stiff.scene().solver).spectrum.muMax;
    const double muSoft = soft.solver<PdSolver>().jacobiParameters(soft.scene().solver).spectrum.muMax;
    std::cout << fmt::format("[live pd] largest eigenvalue of D^-1 A: {:.4f} stiff, {:.4f} soft\n", muStiff, muSoft);
    ASSERT_LT(muSoft, muStiff);
    soft.scene().solver.pd.relaxation = float(4.0 / (muSoft + muStiff));  // converges soft, diverges stiff
    try {
        soft.edit(PdMaterialEdit{bar, PdFamily::TetStrain, scene.solids[0].strain});
        ADD_FAILURE() << "stiffening past the relaxation's limit was accepted";
    } catch (const std::invalid_argument& e) {
        std::cout << "[live pd] refused: " << e.what() << "\n";
        EXPECT_NE(std::string(e.what()).find("solid 'bar' strain"), std::string::npos);
    }
    EXPECT_EQ(soft.scene().solids[0].strain.stiffness, strain.stiffness);
    EXPECT_NO_THROW(frames(ctx(), soft, 1));

    // A PD cloth beside a PBD one: the PD cloth's stretch is live through
    // a PdMaterialEdit, not a PbdMaterialEdit.
    Scene mixed = loadScene(sourcePath("scenes/pd_vs_pbd_cloth.json"));
    World both(ctx(), mixed, 1);
    ASSERT_EQ(mixed.cloths[1].method, SolverMethod::Pd);
    EXPECT_THROW(both.edit(PbdMaterialEdit{1, ConstraintFamily::Stretch, mixed.cloths[1].stretch}),
                 std::invalid_argument);
    EXPECT_THROW(both.edit(PdMaterialEdit{{PdOwner::Kind::Cloth, 0}, PdFamily::Springs, mixed.cloths[1].pd.stretch}),
                 std::invalid_argument);
    PdParams stretch = mixed.cloths[1].pd.stretch;
    stretch.stiffness *= 0.5f;
    EXPECT_NO_THROW(both.edit(PdMaterialEdit{{PdOwner::Kind::Cloth, 1}, PdFamily::Springs, stretch}));
    EXPECT_NO_THROW(frames(ctx(), both, 2));
}

}  // namespace
}  // namespace vksim::test
