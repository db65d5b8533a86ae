// The projective dynamics global step with a tiled matrix-vector product
// (docs/physics.md §5, "A tiled matrix-vector product"; pd/jacobi_tiled.comp):
// each workgroup reads its rows' neighbours from a window of q^k in shared
// memory, and computes what a dispatch per iteration does, bit for bit, on
// a cloth of several tiles, on a tetrahedral ball, and on a cloth whose rows
// reach farther than the window (those neighbours come from device memory),
// with residual tracking and a mouse drag. All under the validation layer
// with synchronization validation.
#include <cstring>
#include <iostream>

#include <fmt/format.h>

#include "gpu_harness.h"
#include "scene/scene_loader.h"
#include "solvers/pd/pd_solver.h"
#include "solvers/pd/pd_system.h"
#include "world/world.h"
#include "world_frames.h"
#include "scene_paths.h"

namespace vksim::test {
namespace {

class PdJacobiTiled : public GpuTest {};

struct TiledCase {
    std::string name;
    Scene scene;
};

TEST_F(PdJacobiTiled, MatchesADispatchPerIterationBitForBit) {
    std::vector<TiledCase> cases;
    Scene cloth = loadScene(sourcePath("scenes/pd_cloth_sphere.json"));
    cloth.cloths[0].grid.resolution = {64, 64};  // 4096 rows: four tiles
    cases.push_back({"64 x 64 PD cloth", cloth});
    cases.push_back({"scenes/pd_ball.json", loadScene(sourcePath("scenes/pd_ball.json"))});
    // Rows of 1200 particles: neighbours 1201 apart, past the window of any
    // device up to 64 KiB of shared memory (a halo of at most 1536).
    Scene wide = cloth;
    wide.cloths[0].grid.resolution = {1600, 3};
    wide.cloths[0].grid.size = {8.0f, 0.2f};
    cases.push_back({"1600 x 3 PD cloth", wide});

    for (const TiledCase& c : cases) {
        World tiled(ctx(), onPath(c.scene, PdJacobiPath::Tiled), 1);
        World perIteration(ctx(), onPath(c.scene, PdJacobiPath::PerIteration), 1);
        const PdModel& pd = tiled.model().pd;
        const uint32_t halo = tiled.solver<PdSolver>().tiledJacobiHalo(), band = pdBandwidth(pd);
        std::cout << fmt::format("[pd tiled] {}: {} rows, bandwidth {}, halo {} (tiles of {} rows)\n", c.name,
                                 pd.particleCount, band, halo, vksim::PdJacobiTiled::kRows);
        if (c.name.starts_with("1600")) {
            EXPECT_LT(halo, band) << "the case meant to reach past the window does not";
        } else {
            EXPECT_EQ(halo, band);
        }
        tiled.setResidualTracking(true);
        perIteration.setResidualTracking(true);
        const uint32_t particle = pd.firstParticle + pd.particleCount / 2;
        // Frames before, during and after a drag: every phase's dispatches
        // run from the state the previous phase left.
        for (World* world : {&tiled, &perIteration}) {
            runWorldFrames(ctx(), *world, 3);
            world->drag(particle, glm::vec3(0.3f, 1.5f, 0.4f));
            runWorldFrames(ctx(), *world, 3);
            world->release();
            runWorldFrames(ctx(), *world, 2);
        }
        const std::vector<glm::vec4> xa = tiled.particles().readPositions(), xb = perIteration.particles().readPositions();
        const std::vector<glm::vec4> va = tiled.particles().readVelocities(),
                                     vb = perIteration.particles().readVelocities();
        ASSERT_EQ(xa.size(), xb.size());
        EXPECT_EQ(0, std::memcmp(xa.data(), xb.data(), xa.size() * sizeof(glm::vec4))) << c.name << ": positions";
        EXPECT_EQ(0, std::memcmp(va.data(), vb.data(), va.size() * sizeof(glm::vec4))) << c.name << ": velocities";
        EXPECT_EQ(tiled.lastPdResidualPerIteration(), perIteration.lastPdResidualPerIteration()) << c.name;
        const PdSettings& settings = c.scene.solver.pd;
        const uint32_t dispatches = c.scene.solver.substeps * settings.localIterations * settings.jacobiIterations;
        EXPECT_EQ(passRunsInLastFrame(tiled, vksim::PdJacobiTiled::kPassName), dispatches) << c.name;
        EXPECT_EQ(passRunsInLastFrame(tiled, "pd: jacobi/chebyshev"), 0u) << c.name;
    }
}

// "auto" never takes the tiled path: it is not measured on a GPU yet, and on
// a CPU driver, whose shared memory is ordinary memory, the copy is pure cost.
TEST_F(PdJacobiTiled, AutoDoesNotTakeIt) {
    Scene cloth = loadScene(sourcePath("scenes/pd_cloth_sphere.json"));
    cloth.cloths[0].grid.resolution = {64, 64};
    World world(ctx(), cloth, 1);
    EXPECT_NE(world.solver<PdSolver>().jacobiPathFor(cloth.solver), PdJacobiPath::Tiled);
}

}  // namespace
}  // namespace vksim::test
