// One colouring across the PBD constraint families ("pbdColouring":
// "acrossFamilies", docs/physics.md §1, solvers/pbd/colour_steps.h): on every path
// the GPU follows the CPU reference sweeping the shared colours; the
// per-colour and workgroup paths compute the same bits; the per-colour path
// needs fewer dispatches than with a colouring per family; a live change is
// refused. (Convergence per iteration, from one state in the CPU reference:
// tests/unit/colour_steps_test.cpp.) All under the validation layer with
// synchronization validation.
#include <cmath>
#include <cstring>
#include <iostream>

#include <fmt/format.h>

#include "gpu_harness.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/colour_steps.h"
#include "solvers/pbd/pbd_reference.h"
#include "solvers/pbd/pbd_solver.h"
#include "solvers/pbd/workgroup_plan.h"
#include "world/world.h"
#include "world_frames.h"

namespace vksim::test {
namespace {

class ColourAcrossFamilies : public GpuTest {};

// The harness's swinging cloth without its sphere, at 40 x 40: it fits
// one workgroup on every device and is cut into clusters on the cluster
// path.
Scene swingingClothWith(PbdColouring colouring, PbdPath path) {
    Scene scene = swingingCloth(40);
    scene.colliders.clear();
    scene.solver.pbd.colouring = colouring;
    scene.solver.pbd.path = path;
    return scene;
}

// The colouring itself: every family has the shared colours, no colour
// holds two constraints on one particle whatever their families, and the
// steps are the colours, fewer than the families' own together.
TEST_F(ColourAcrossFamilies, SharedColoursHoldNoTwoConstraintsOnOneParticle) {
    const SimModel perFamily = buildModel(swingingClothWith(PbdColouring::PerFamily, PbdPath::PerColour));
    const SimModel across = buildModel(swingingClothWith(PbdColouring::AcrossFamilies, PbdPath::PerColour));
    const size_t colours = across.pbd.distanceGroups.colours.size();
    EXPECT_EQ(across.pbd.bendingGroups.colours.size(), colours);
    EXPECT_EQ(across.pbd.attachmentGroups.colours.size(), colours);
    for (size_t c = 0; c < colours; ++c) {
        std::vector<int> seen(across.positions.size(), 0);
        auto mark = [&](uint32_t particle) { EXPECT_EQ(++seen[particle], 1) << "colour " << c << ", particle " << particle; };
        const ColourRange d = across.pbd.distanceGroups.colours[c], b = across.pbd.bendingGroups.colours[c],
                         a = across.pbd.attachmentGroups.colours[c];
        for (uint32_t j = d.first; j < d.first + d.count; ++j)
            mark(across.pbd.distance[j].p0), mark(across.pbd.distance[j].p1);
        for (uint32_t j = b.first; j < b.first + b.count; ++j)
            for (int k = 0; k < 4; ++k) mark(across.pbd.bending[j].particles[k]);
        for (uint32_t j = a.first; j < a.first + a.count; ++j) mark(across.pbd.attachments[j].particle);
    }
    const size_t steps = colourSteps(across).size(), familySteps = colourSteps(perFamily).size();
    std::cout << fmt::format(
        "[across families] 40 x 40 cloth with attachments: {} shared colours; per family "
        "{} + {} + {} = {}\n",
        colours, perFamily.pbd.distanceGroups.colours.size(), perFamily.pbd.bendingGroups.colours.size(),
        perFamily.pbd.attachmentGroups.colours.size(), familySteps);
    EXPECT_EQ(steps, colours);
    // An interior vertex is in 8 stretch and 16 bending constraints: 24 at least.
    EXPECT_GE(colours, 24u);
    EXPECT_LT(steps, familySteps);
}

// Against the double-precision reference in the shared colours' order,
// frame by frame as the cloth swings down, on each path: float rounding
// only (1e-3 m, the bound of gpu_vs_reference_test.cpp, 0.05% of the 2 m
// cloth). The reference in the families' order is further, which shows
// that the order is what is checked.
TEST_F(ColourAcrossFamilies, EveryPathMatchesTheReferenceInItsOrder) {
    for (PbdPath path : {PbdPath::PerColour, PbdPath::Workgroup, PbdPath::Clusters}) {
        const Scene scene = swingingClothWith(PbdColouring::AcrossFamilies, path);
        const SimModel model = buildModel(scene);
        GpuRun gpu(ctx(), model, scene.solver);
        const PbdSolver& pbd = gpu.stepper().solver<PbdSolver>();
        // 1600 particles fit one workgroup (2730 on lavapipe, 4096 at 48 KiB)
        // and the texel buffers of a CPU driver.
        ASSERT_FALSE(pbd.pathMisfit(path)) << kPbdPathNames[size_t(path)] << ": " << *pbd.pathMisfit(path);
        const bool clusters = path == PbdPath::Clusters;
        if (clusters) {
            ASSERT_GT(pbd.clusterPath().firstSweepClusters(), 1u) << "the cloth is one cluster";
        }
        PbdReference sameOrder(model, clusters ? std::optional(pbd.clusterPath().capacity()) : std::nullopt);
        const SimModel familyModel = buildModel(swingingClothWith(PbdColouring::PerFamily, path));
        PbdReference familyOrder(familyModel, clusters ? std::optional(pbd.clusterPath().capacity()) : std::nullopt);
        double worst = 0.0, worstFamilyOrder = 0.0;
        for (uint32_t f = 1; f <= 20; ++f) {
            gpu.frames(1);
            sameOrder.step(scene.solver);
            familyOrder.step(scene.solver);
            const std::vector<glm::vec4> x = gpu.positions();
            worst = std::max(worst, largestDistance(x, sameOrder.positions()));
            worstFamilyOrder = std::max(worstFamilyOrder, largestDistance(x, familyOrder.positions()));
        }
        std::cout << fmt::format("[across families] {}: {:.3e} m from the reference in its order, {:.3e} m from "
                                 "the one in the families' order (20 frames)\n",
                                 kPbdPathNames[size_t(path)], worst, worstFamilyOrder);
        EXPECT_LT(worst, 1e-3) << kPbdPathNames[size_t(path)];
        EXPECT_GT(worstFamilyOrder, 3.0 * worst) << kPbdPathNames[size_t(path)];
    }
}

// The per-colour and workgroup paths project the same constraints in the
// same order with the same functions: the same bits, as with a colouring
// per family (workgroup_solve_test.cpp).
TEST_F(ColourAcrossFamilies, PerColourAndWorkgroupPathsAgreeBitForBit) {
    World perColour(ctx(), swingingClothWith(PbdColouring::AcrossFamilies, PbdPath::PerColour), 1);
    ASSERT_FALSE(perColour.solver<PbdSolver>().pathMisfit(PbdPath::Workgroup)) << "1600 particles fit one workgroup";
    World workgroup(ctx(), swingingClothWith(PbdColouring::AcrossFamilies, PbdPath::Workgroup), 1);
    runWorldFrames(ctx(), perColour, 30);
    runWorldFrames(ctx(), workgroup, 30);
    const std::vector<glm::vec4> a = perColour.particles().readPositions(), b = workgroup.particles().readPositions();
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec4)));
}

// Dispatches per iteration on the per-colour path: one per shared colour,
// against one per colour of each family, and a colour pass that holds
// every family.
TEST_F(ColourAcrossFamilies, FewerDispatchesOnThePerColourPath) {
    const Scene scene = swingingClothWith(PbdColouring::AcrossFamilies, PbdPath::PerColour);
    World across(ctx(), scene, 1);
    World perFamily(ctx(), swingingClothWith(PbdColouring::PerFamily, PbdPath::PerColour), 1);
    runWorldFrames(ctx(), across, 2);
    runWorldFrames(ctx(), perFamily, 2);
    const size_t a = across.timer().lastCollectedFrame().runs.size();
    const size_t b = perFamily.timer().lastCollectedFrame().runs.size();
    const size_t iterations = scene.solver.substeps * scene.solver.pbd.iterations;
    const size_t colours = across.model().pbd.distanceGroups.colours.size();
    std::cout << fmt::format("[across families] dispatches per frame: {} (per family: {}), {} fewer an iteration\n",
                             a, b, (b - a) / iterations);
    EXPECT_EQ(b - a, iterations * (colourSteps(perFamily.model()).size() - colours));
    size_t colourPasses = 0;
    for (const PassRunInterval& run : across.timer().lastCollectedFrame().runs)
        colourPasses += across.timer().passName(run.passId).starts_with("pbd: shared colour ");
    EXPECT_EQ(colourPasses, iterations * colours);
}

// The colouring is fixed when the world is built (the arrays are sorted by
// it): a live change is refused with a message naming it.
TEST_F(ColourAcrossFamilies, ALiveChangeIsRefused) {
    World world(ctx(), swingingClothWith(PbdColouring::PerFamily, PbdPath::PerColour), 1);
    runWorldFrames(ctx(), world, 1);
    world.scene().solver.pbd.colouring = PbdColouring::AcrossFamilies;
    try {
        runWorldFrames(ctx(), world, 1);
        ADD_FAILURE() << "a live colouring change was taken";
    } catch (const std::invalid_argument& e) {
        std::cout << "[across families] " << e.what() << "\n";
        EXPECT_NE(std::string(e.what()).find("pbdColouring"), std::string::npos);
    }
}

}  // namespace
}  // namespace vksim::test
