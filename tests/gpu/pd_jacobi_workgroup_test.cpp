// The projective dynamics global step in one dispatch (docs/physics.md §5,
// "The global step in one dispatch"): all J Jacobi/Chebyshev iterations in
// one workgroup compute what J dispatches do, bit for bit (the same row
// function, omegas and buffer rotation), on a cloth over a sphere and a
// tetrahedral bar, with residual tracking and a mouse drag; a global step is
// one dispatch instead of J. All under the validation layer with
// synchronization validation.
#include <cstring>
#include <iostream>

#include <fmt/format.h>

#include "gpu_harness.h"
#include "scene/scene_loader.h"
#include "solvers/pd/pd_solver.h"
#include "world/world.h"
#include "world_frames.h"
#include "scene_paths.h"

namespace vksim::test {
namespace {

class PdJacobiWorkgroup : public GpuTest {};

void expectSameBits(const World& a, const World& b, const std::string& what) {
    const std::vector<glm::vec4> xa = a.particles().readPositions(), xb = b.particles().readPositions();
    const std::vector<glm::vec4> va = a.particles().readVelocities(), vb = b.particles().readVelocities();
    ASSERT_EQ(xa.size(), xb.size());
    EXPECT_EQ(0, std::memcmp(xa.data(), xb.data(), xa.size() * sizeof(glm::vec4))) << what << ": positions differ";
    EXPECT_EQ(0, std::memcmp(va.data(), vb.data(), va.size() * sizeof(glm::vec4))) << what << ": velocities differ";
}

TEST_F(PdJacobiWorkgroup, MatchesADispatchPerIterationBitForBit) {
    for (const char* file : {"scenes/pd_cloth_sphere.json", "scenes/pd_bar.json"}) {
        const Scene scene = loadScene(sourcePath(file));
        World workgroup(ctx(), onPath(scene, PdJacobiPath::Workgroup), 1);
        World perIteration(ctx(), onPath(scene, PdJacobiPath::PerIteration), 1);
        workgroup.setResidualTracking(true);
        perIteration.setResidualTracking(true);
        const uint32_t particle = workgroup.model().pd.firstParticle + workgroup.model().pd.particleCount - 1;
        // Frames before, during and after a drag: every phase's dispatches
        // run from the state the previous phase left.
        for (World* world : {&workgroup, &perIteration}) {
            runWorldFrames(ctx(), *world, 6);
            world->drag(particle, glm::vec3(0.3f, 1.5f, 0.4f));
            runWorldFrames(ctx(), *world, 6);
            world->release();
            runWorldFrames(ctx(), *world, 4);
        }
        expectSameBits(workgroup, perIteration, file);
        EXPECT_EQ(workgroup.lastPdResidualPerIteration(), perIteration.lastPdResidualPerIteration()) << file;
        const PdSettings& pd = scene.solver.pd;
        const uint32_t globalSteps = scene.solver.substeps * pd.localIterations;
        const uint32_t a = passRunsInLastFrame(workgroup, PdJacobiInWorkgroup::kPassName);
        const uint32_t b = passRunsInLastFrame(perIteration, "pd: jacobi/chebyshev");
        std::cout << fmt::format("[pd jacobi] {}: {} Jacobi dispatches per frame in one workgroup, {} per iteration\n",
                                 file, a, b);
        EXPECT_EQ(a, globalSteps);
        EXPECT_EQ(b, globalSteps * pd.jacobiIterations);
        EXPECT_EQ(passRunsInLastFrame(workgroup, "pd: jacobi/chebyshev"), 0u);
    }
}

// "auto": one workgroup for a system of at most kPdOneWorkgroupRows rows, on
// every device, a dispatch per iteration above.
TEST_F(PdJacobiWorkgroup, AutoTakesOneWorkgroupForSmallSystems) {
    const Scene bar = loadScene(sourcePath("scenes/pd_bar.json"));  // 99 particles
    const Scene ball = loadScene(sourcePath("scenes/pd_ball.json"));  // 729 particles
    World small(ctx(), bar, 1), large(ctx(), ball, 1);
    EXPECT_EQ(small.solver<PdSolver>().jacobiPathFor(bar.solver), PdJacobiPath::Workgroup);
    EXPECT_EQ(large.solver<PdSolver>().jacobiPathFor(ball.solver), PdJacobiPath::PerIteration);
}

}  // namespace
}  // namespace vksim::test
