// The PBD workgroup solve (docs/physics.md §1, "Small objects in one
// workgroup") against the per-colour path: both project the same constraints in the same order with the same
// functions, so on one device the states must agree bit for bit, frame after
// frame, with colliders, two cloths (PBD and XPBD, attachments), a mouse
// drag, residual tracking (which splits the frame's last substep into one
// dispatch per iteration) and an overflow group. The CPU reference follows
// the same order, and gpu_vs_reference_test.cpp and solver_conformance_test.cpp
// run the default path, which is this one wherever the objects fit. A frame
// is 3 dispatches (the solve, normals, the finite check) whatever the
// substep, iteration and colour counts. All under the validation layer with
// synchronization validation.
#include <cmath>
#include <cstring>
#include <iostream>
#include <string>

#include <fmt/format.h>

#include "../common/mesh_fixtures.h"
#include "gpu_harness.h"
#include "scene/scene_loader.h"
#include "solvers/pbd/pbd_solver.h"
#include "solvers/pbd/workgroup_plan.h"
#include "world/world.h"
#include "world_frames.h"
#include "scene_paths.h"

namespace vksim::test {
namespace {

class WorkgroupSolve : public GpuTest {};

struct State {
    std::vector<glm::vec4> positions, velocities;
};

State stateOf(const World& world) {
    return {world.particles().readPositions(), world.particles().readVelocities()};
}

// Largest |a - b| over every component, and whether the bits are equal.
void expectBitIdentical(const State& workgroup, const State& perColour, const std::string& what) {
    ASSERT_EQ(workgroup.positions.size(), perColour.positions.size());
    double worst = 0.0;
    for (size_t i = 0; i < workgroup.positions.size(); ++i)
        for (int k = 0; k < 3; ++k) {
            worst = std::max(worst, std::abs(double(workgroup.positions[i][k]) - perColour.positions[i][k]));
            worst = std::max(worst, std::abs(double(workgroup.velocities[i][k]) - perColour.velocities[i][k]));
        }
    std::cout << fmt::format("[workgroup] {}: largest difference from the per-colour path {:.3g}\n", what, worst);
    EXPECT_EQ(0, std::memcmp(workgroup.positions.data(), perColour.positions.data(),
                             workgroup.positions.size() * sizeof(glm::vec4)))
        << what << ": positions differ";
    EXPECT_EQ(0, std::memcmp(workgroup.velocities.data(), perColour.velocities.data(),
                             workgroup.velocities.size() * sizeof(glm::vec4)))
        << what << ": velocities differ";
}

// Dispatches in the world's last collected frame.
size_t dispatchesOf(World& world) { return world.timer().lastCollectedFrame().runs.size(); }

// Two cloths over a sphere and the ground: a PBD one whose pins are
// attachment constraints, and an XPBD one with fixed pins.
Scene twoClothScene() {
    return parseScene(R"({
        "solver": { "substeps": 3, "iterations": 5 },
        "objects": [
          { "type": "cloth", "name": "pbd", "size": [1, 1], "resolution": [20, 16], "position": [-0.4, 1.1, 0],
            "mass": 0.5, "pinned": [[0, 0], [-1, 0]], "pinsAsAttachments": true,
            "attachment": { "stiffness": 0.9 }, "bending": { "stiffness": 0.2 } },
          { "type": "cloth", "name": "xpbd", "size": [1, 1], "resolution": [18, 18], "position": [0.5, 1.0, 0],
            "mass": 0.5, "pinned": [[0, 0]], "stretch": { "model": "xpbd", "compliance": 1e-6 },
            "bending": { "model": "xpbd", "compliance": 10.0 } } ],
        "colliders": [ { "type": "sphere", "position": [0, 0.5, 0], "radius": 0.5, "friction": 0.4,
                         "restitution": 0.3 },
                       { "type": "plane", "friction": 0.4 } ] })",
                      "two_cloths.json");
}

// 36 frames: the cloth, 0.6 m above the ball's top, reaches it in about
// the 21st (0.35 s of free fall) and lies on it, with its friction, for the
// rest.
TEST_F(WorkgroupSolve, DefaultSceneMatchesThePerColourPathBitForBit) {
    const Scene scene = loadScene(sourcePath("scenes/cloth_sphere.json"));
    World workgroup(ctx(), onPath(scene, PbdPath::Workgroup), 1);
    World perColour(ctx(), onPath(scene, PbdPath::PerColour), 1);
    runWorldFrames(ctx(), workgroup, 36);
    runWorldFrames(ctx(), perColour, 36);
    expectBitIdentical(stateOf(workgroup), stateOf(perColour), "cloth_sphere.json, 36 frames");
    std::cout << fmt::format("[workgroup] dispatches per frame: {} (per colour: {})\n", dispatchesOf(workgroup),
                             dispatchesOf(perColour));
    // The solve, the normals and the finite check: at most 2 x substeps + 4.
    EXPECT_EQ(dispatchesOf(workgroup), 3u);
    EXPECT_LE(dispatchesOf(workgroup), 2 * scene.solver.substeps + 4);
    EXPECT_GT(dispatchesOf(perColour), 800u);
}

TEST_F(WorkgroupSolve, TwoClothsWithAttachmentsAndXpbdMatch) {
    const Scene scene = twoClothScene();
    World workgroup(ctx(), onPath(scene, PbdPath::Workgroup), 1);
    World perColour(ctx(), onPath(scene, PbdPath::PerColour), 1);
    ASSERT_GT(workgroup.model().pbd.attachments.size(), 0u);
    // 40 frames: the XPBD cloth starts on the ball's top and the PBD one
    // reaches it in about the 9th; both swing on their pins over it.
    runWorldFrames(ctx(), workgroup, 40);
    runWorldFrames(ctx(), perColour, 40);
    expectBitIdentical(stateOf(workgroup), stateOf(perColour), "two cloths, 40 frames");
    EXPECT_EQ(dispatchesOf(workgroup), 3u);  // one dispatch, one workgroup per cloth
}

TEST_F(WorkgroupSolve, MouseDragMatches) {
    const Scene scene = twoClothScene();
    World workgroup(ctx(), onPath(scene, PbdPath::Workgroup), 1);
    World perColour(ctx(), onPath(scene, PbdPath::PerColour), 1);
    // A free corner of the second cloth, pulled up and sideways, then let go.
    const uint32_t particle = workgroup.model().objects[1].firstParticle + 17 * 18 + 17;
    for (World* world : {&workgroup, &perColour}) {
        runWorldFrames(ctx(), *world, 10);
        world->drag(particle, glm::vec3(1.2f, 1.6f, 0.3f));
        runWorldFrames(ctx(), *world, 20);
        world->release();
        runWorldFrames(ctx(), *world, 10);
    }
    expectBitIdentical(stateOf(workgroup), stateOf(perColour), "drag of particle " + std::to_string(particle));
}

TEST_F(WorkgroupSolve, ResidualTrackingSplitsTheLastSubstepWithoutChangingIt) {
    const Scene scene = twoClothScene();
    World tracked(ctx(), onPath(scene, PbdPath::Workgroup), 1);
    World untracked(ctx(), onPath(scene, PbdPath::Workgroup), 1);
    World perColour(ctx(), onPath(scene, PbdPath::PerColour), 1);
    tracked.setResidualTracking(true);
    perColour.setResidualTracking(true);
    for (World* world : {&tracked, &untracked, &perColour}) runWorldFrames(ctx(), *world, 30);
    expectBitIdentical(stateOf(tracked), stateOf(untracked), "tracked against untracked");
    expectBitIdentical(stateOf(tracked), stateOf(perColour), "tracked, against the per-colour path");
    const std::vector<float> curve = tracked.lastResidualPerIteration();
    ASSERT_EQ(curve.size(), scene.solver.pbd.iterations);
    EXPECT_EQ(curve, perColour.lastResidualPerIteration());
    std::cout << "[workgroup] mean |C| after each iteration of the last substep:";
    for (float r : curve) std::cout << fmt::format(" {:.3e}", r);
    std::cout << "\n";
    // One dispatch for the first substeps, one per iteration, one to finish.
    size_t solves = 0;
    for (const PassRunInterval& run : tracked.timer().lastCollectedFrame().runs)
        solves += tracked.timer().passName(run.passId) == WorkgroupPath::kPassName ? 1 : 0;
    EXPECT_EQ(solves, scene.solver.pbd.iterations + 2);
}

// With contacts the path solves substep by substep (docs/physics.md §14,
// "Contacts in the workgroup path"); residual tracking splits the last
// substep into a dispatch per iteration, each resuming from the contact
// lists its first one made: the same state as untracked. Two cloths of
// tests/cli/contacts_pair.json landing on each other, 6 frames.
TEST_F(WorkgroupSolve, ResidualTrackingWithContactsSplitsTheLastSubstepWithoutChangingIt) {
    const Scene scene = onPath(loadScene(sourcePath("tests/cli/contacts_pair.json")), PbdPath::Workgroup);
    World tracked(ctx(), scene, 1);
    World untracked(ctx(), scene, 1);
    ASSERT_FALSE(tracked.solver<PbdSolver>().recordsWholeFrames(scene.solver));
    tracked.setResidualTracking(true);
    for (World* world : {&tracked, &untracked}) runWorldFrames(ctx(), *world, 6);
    expectBitIdentical(stateOf(tracked), stateOf(untracked), "with contacts, tracked against untracked");
    EXPECT_EQ(tracked.lastResidualPerIteration().size(), scene.solver.pbd.iterations);
    // One dispatch per untracked substep, one per iteration of the last.
    size_t solves = 0;
    for (const PassRunInterval& run : tracked.timer().lastCollectedFrame().runs)
        solves += tracked.timer().passName(run.passId) == WorkgroupPath::kPassName ? 1 : 0;
    EXPECT_EQ(solves, scene.solver.substeps - 1 + scene.solver.pbd.iterations);
}

// A UV sphere whose poles have valence 100 > kMaxColours: each object's share
// of the overflow group is walked in order by one invocation.
TEST_F(WorkgroupSolve, OverflowGroupMatches) {
    ScratchFolder folder;
    writeTextFile(folder / "uv_sphere.obj", makeUvSphere(0.5, 100, 4).obj());
    const Scene scene = parseScene(R"({
        "solver": { "substeps": 2, "iterations": 4 },
        "objects": [ { "type": "mesh", "name": "balloon", "file": "uv_sphere.obj", "position": [0, 0.7, 0],
                       "mass": 1.0, "pinnedRegions": [ { "min": [-1, -0.001, -1], "max": [1, 0.001, 1] } ] } ] })",
                                   folder / "uv_sphere.json");
    World workgroup(ctx(), onPath(scene, PbdPath::Workgroup), 1);
    World perColour(ctx(), onPath(scene, PbdPath::PerColour), 1);
    ASSERT_GT(workgroup.model().pbd.distanceGroups.overflow.count, 0u);
    ASSERT_GT(workgroup.model().pbd.bendingGroups.overflow.count, 0u);
    runWorldFrames(ctx(), workgroup, 40);
    runWorldFrames(ctx(), perColour, 40);
    expectBitIdentical(stateOf(workgroup), stateOf(perColour), "UV sphere with an overflow group, 40 frames");
}

// An object larger than one workgroup holds: "auto" leaves the workgroup
// path (for the clusters or the colours, cluster_solve_test.cpp),
// "workgroup" is refused in one line naming the key.
TEST_F(WorkgroupSolve, AnObjectTooBigForOneWorkgroupLeavesTheWorkgroupPath) {
    const uint32_t capacity = workgroupParticleCapacity(ctx().properties().limits.maxComputeSharedMemorySize);
    const auto side = static_cast<uint32_t>(std::ceil(std::sqrt(double(capacity + 1))));
    Scene scene = clothScene({side, side}, {1.0f, 1.0f}, 1.0f);
    scene.path = "big.json";
    World automatic(ctx(), scene, 1);
    ASSERT_TRUE(automatic.solver<PbdSolver>().pathMisfit(PbdPath::Workgroup).has_value());
    EXPECT_FALSE(automatic.solver<PbdSolver>().recordsWholeFrames(scene.solver));
    runWorldFrames(ctx(), automatic, 1);
    EXPECT_GT(dispatchesOf(automatic), 3u);
    try {
        World refused(ctx(), onPath(scene, PbdPath::Workgroup), 1);
        FAIL() << "a cloth of " << side * side << " particles was accepted";
    } catch (const std::invalid_argument& e) {
        std::cout << "[workgroup] " << e.what() << "\n";
        EXPECT_NE(std::string(e.what()).find("big.json: /solver/pbdPath:"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find(fmt::format("at most {}", capacity)), std::string::npos);
    }
}

}  // namespace
}  // namespace vksim::test
