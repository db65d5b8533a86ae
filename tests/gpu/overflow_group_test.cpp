// The overflow group on the GPU (docs/physics.md §1): a UV-sphere cloth
// whose poles have valence 1000 needs more colours than kMaxColours; the
// constraints past the cap are projected by one dispatch per family and
// iteration in which one thread walks them in order. The run must stay
// finite, match the CPU reference (same order: colours, then the overflow
// group) to the conformance tolerance, and keep the validation layer
// (synchronization validation included) silent. An ordinary cloth has no
// overflow pass at all.
#include <cmath>
#include <iostream>
#include <string>

#include <fmt/format.h>

#include "../common/mesh_fixtures.h"
#include "gpu_harness.h"
#include "model/graph_colouring.h"
#include "scene/scene_loader.h"
#include "solver_traits.h"
#include "solvers/pbd/pbd_solver.h"
#include "world/world.h"
#include "world_frames.h"

namespace vksim::test {
namespace {

class OverflowGroup : public GpuTest {};

constexpr uint32_t kSegments = 1000;  // the valence of each pole

// A UV-sphere cloth (1000 segments around, 8 rings: 7002 particles) held
// by its equator ring, both poles free: the lower half sags into a bowl and
// the upper dome slumps (isometric bending's rest state is flat), so every
// overflow constraint moves its pole. (Dropped onto the ground instead, the
// shell crumples, a buckling whose float32 and float64 runs part by
// centimetres with or without the cap.) 2 substeps of 4 iterations keep
// the dispatches per frame (~1000, with 64 + 1 per family and iteration)
// affordable under the validation layer on lavapipe.
Scene uvSphereScene(const ScratchFolder& folder) {
    writeTextFile(folder / "uv_sphere.obj", makeUvSphere(0.5, kSegments, 8).obj());
    return parseScene(R"({
        "solver": { "substeps": 2, "iterations": 4 },
        "objects": [ { "type": "mesh", "name": "balloon", "file": "uv_sphere.obj", "position": [0, 0.7, 0],
                       "mass": 1.0,
                       "pinnedRegions": [ { "min": [-1, -0.001, -1], "max": [1, 0.001, 1] } ] } ] })",
                      folder / "uv_sphere.json");
}

// How often each pass named `name` ran in the world's last collected frame.
bool hasPassEndingIn(World& world, const std::string& suffix) {
    for (uint32_t id = 0; id < world.timer().passCount(); ++id)
        if (world.timer().passName(id).ends_with(suffix)) return true;
    return false;
}

TEST_F(OverflowGroup, UvSphereClothMatchesTheCpuReference) {
    ScratchFolder folder;
    Scene scene = uvSphereScene(folder);
    // The colour order the reference sweeps in ("auto" may take the clusters
    // for this object, too big for one workgroup: the test below).
    scene.solver.pbd.path = PbdPath::PerColour;
    World world(ctx(), scene, 1);
    const SimModel& model = world.model();
    const ColourGroups& stretch = model.pbd.distanceGroups;
    const ColourGroups& bending = model.pbd.bendingGroups;
    std::cout << fmt::format("[overflow] UV sphere, {} particles: stretch {} colours + {} in the overflow group, "
                             "bending {} colours + {} in the overflow group\n",
                             model.particleCount(), stretch.colours.size(), stretch.overflow.count,
                             bending.colours.size(), bending.overflow.count);
    // Each pole's kSegments edges: kMaxColours of them coloured, the rest overflow.
    EXPECT_EQ(stretch.colours.size(), kMaxColours);
    EXPECT_EQ(stretch.overflow.count, 2 * (kSegments - kMaxColours));
    EXPECT_EQ(bending.colours.size(), kMaxColours);
    EXPECT_GT(bending.overflow.count, 2 * (kSegments - kMaxColours));
    EXPECT_EQ(stretch.overflow.first + stretch.overflow.count, model.pbd.distance.size());

    PbdReference reference(model);
    const ParticleRange range = reference.range(reference.world());
    constexpr uint32_t kFrames = 30;
    double worst = 0.0;
    bool finite = true;
    for (uint32_t f = 1; f <= kFrames; ++f) {
        runWorldFrames(ctx(), world, 1);
        reference.step(scene.solver);
        const std::vector<glm::vec4> gpu = world.positions().downloadArray<glm::vec4>();
        double d = 0.0;
        for (uint32_t i = range.first; i < range.end(); ++i) {
            finite = finite && std::isfinite(gpu[i].x) && std::isfinite(gpu[i].y) && std::isfinite(gpu[i].z);
            d = std::max(d, glm::length(glm::dvec3(glm::vec3(gpu[i])) - reference.positions()[i]));
        }
        worst = std::max(worst, d);
        if (f % 10 == 0) std::cout << fmt::format("[overflow] gpu vs reference frame {:>2}: max {:.3e} m\n", f, d);
    }
    // One overflow dispatch per family and iteration, none more.
    const uint32_t iterations = scene.solver.substeps * scene.solver.pbd.iterations;
    EXPECT_EQ(passRunsInLastFrame(world, "pbd: stretch overflow"), iterations);
    EXPECT_EQ(passRunsInLastFrame(world, "pbd: bending overflow"), iterations);
    EXPECT_EQ(passRunsInLastFrame(world, "pbd: stretch colour 63"), iterations);
    EXPECT_FALSE(hasPassEndingIn(world, "pbd: attachment overflow"));

    // Both poles (the highest and the lowest particle at the start) moved:
    // the overflow constraints did work.
    uint32_t top = range.first, bottom = range.first;
    for (uint32_t i = range.first; i < range.end(); ++i) {
        if (model.positions[i].y > model.positions[top].y) top = i;
        if (model.positions[i].y < model.positions[bottom].y) bottom = i;
    }
    const glm::dvec3 north = reference.positions()[top] - glm::dvec3(glm::vec3(model.positions[top]));
    const glm::dvec3 south = reference.positions()[bottom] - glm::dvec3(glm::vec3(model.positions[bottom]));
    std::cout << fmt::format("[overflow] gpu vs reference worst {:.3e} m (bound {:.0e} m); the poles moved {:.3f} "
                             "and {:.3f} m\n",
                             worst, PbdTraits::kReferenceTolerance, glm::length(north), glm::length(south));
    EXPECT_TRUE(finite);
    EXPECT_GT(glm::length(north), 0.01);
    EXPECT_GT(glm::length(south), 0.01);
    // Measured 3.5e-6 m. Without the overflow dispatch the GPU parts from
    // the reference by 0.7 m within 10 frames.
    EXPECT_LT(worst, PbdTraits::kReferenceTolerance);
}

// The same sphere on the cluster path (docs/physics.md §1, "Large objects
// in clusters"): a mesh whose vertex order is rings around the axis, with
// poles joined to a whole ring, so the coloured sweep is busy: the pole
// constraints reach across clusters, and every overflow constraint is its.
// Against the reference in the cluster order, to the same tolerance.
TEST_F(OverflowGroup, UvSphereOnTheClusterPathMatchesTheClusterOrder) {
    ScratchFolder folder;
    Scene scene = uvSphereScene(folder);
    scene.solver.pbd.path = PbdPath::Clusters;
    World world(ctx(), scene, 1);
    PbdReference reference(world.model(), world.solver<PbdSolver>().clusterPath().capacity());
    const ParticleRange range = reference.range(reference.world());
    double worst = 0.0;
    for (uint32_t f = 1; f <= 30; ++f) {
        runWorldFrames(ctx(), world, 1);
        reference.step(scene.solver);
        const std::vector<glm::vec4> gpu = world.positions().downloadArray<glm::vec4>();
        for (uint32_t i = range.first; i < range.end(); ++i)
            worst = std::max(worst, glm::length(glm::dvec3(glm::vec3(gpu[i])) - reference.positions()[i]));
    }
    const uint32_t iterations = scene.solver.substeps * scene.solver.pbd.iterations;
    std::cout << fmt::format("[overflow] cluster path: gpu vs cluster-order reference worst {:.3e} m; per frame "
                             "{} cluster sweeps, {} stretch overflow runs\n",
                             worst,
                             passRunsInLastFrame(world, "pbd: cluster sweep 1") +
                                 passRunsInLastFrame(world, "pbd: cluster sweep 2"),
                             passRunsInLastFrame(world, "pbd: stretch overflow"));
    EXPECT_EQ(passRunsInLastFrame(world, "pbd: cluster sweep 1"), iterations);
    EXPECT_EQ(passRunsInLastFrame(world, "pbd: stretch overflow"), iterations);
    EXPECT_LT(worst, PbdTraits::kReferenceTolerance);
}

TEST_F(OverflowGroup, AnOrdinaryClothHasNoOverflowPass) {
    Scene scene = clothScene({12, 12}, {1.0f, 1.0f}, 1.0f);
    scene.solver.pbd.path = PbdPath::PerColour;  // the workgroup path has no colour passes at all
    World world(ctx(), scene, 1);
    runWorldFrames(ctx(), world, 1);
    EXPECT_EQ(world.model().pbd.distanceGroups.overflow.count, 0u);
    EXPECT_EQ(world.model().pbd.bendingGroups.overflow.count, 0u);
    EXPECT_FALSE(hasPassEndingIn(world, " overflow"));
    EXPECT_GT(passRunsInLastFrame(world, "pbd: stretch colour 0"), 0u);
}

}  // namespace
}  // namespace vksim::test
