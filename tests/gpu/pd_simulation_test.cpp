// Projective dynamics inside the engine's World (what headless and
// windowed runs drive): with PBD and PD objects in one scene, each solver
// steps only its own particles of the shared buffers, so each object moves
// exactly (bit for bit) as it does in a scene of its own, and the PD objects
// as a Stepper alone moves them.
#include <fmt/format.h>

#include "../common/mesh_fixtures.h"
#include "geometry/tet_mesh.h"
#include "gpu_harness.h"
#include "scene/scene_loader.h"
#include "solvers/model_builder.h"
#include "solvers/pd/pd_solver.h"
#include "world/world.h"
#include "world_frames.h"

namespace vksim::test {
namespace {

class PdSimulation : public GpuTest {};

std::vector<glm::vec4> simulate(VulkanContext& ctx, const Scene& scene, uint32_t frames) {
    World sim(ctx, scene, 1);
    runWorldFrames(ctx, sim, frames);
    return sim.particles().readPositions();
}

// The solvers stepped by a Stepper on their own: no World around them.
std::vector<glm::vec4> simulatePdAlone(VulkanContext& ctx, const Scene& scene, uint32_t frames) {
    const SimModel model = buildModel(scene);
    GpuRun run(ctx, model, scene.solver);
    run.frames(frames);
    return run.positions();
}

TEST_F(PdSimulation, EachSolverStepsOnlyItsOwnParticles) {
    const Scene mixed = loadScene(sourcePath("scenes/pd_vs_pbd_cloth.json"));
    ASSERT_EQ(mixed.cloths.size(), 2u);
    ASSERT_EQ(mixed.cloths[0].method, SolverMethod::Pbd);
    Scene pbdOnly = mixed, pdOnly = mixed;
    pbdOnly.cloths.pop_back();
    pdOnly.cloths.erase(pdOnly.cloths.begin());
    const uint32_t frames = 10;
    const std::vector<glm::vec4> both = simulate(ctx(), mixed, frames);
    const std::vector<glm::vec4> pbd = simulate(ctx(), pbdOnly, frames);
    const std::vector<glm::vec4> pd = simulate(ctx(), pdOnly, frames);
    const std::vector<glm::vec4> alone = simulatePdAlone(ctx(), pdOnly, frames);
    ASSERT_EQ(both.size(), pbd.size() + pd.size());
    uint32_t pbdDiffer = 0, pdDiffer = 0;
    for (size_t i = 0; i < pbd.size(); ++i) pbdDiffer += both[i] != pbd[i] ? 1 : 0;
    uint32_t mixedVsPd = 0, pdVsAlone = 0;
    for (size_t i = 0; i < pd.size(); ++i) {
        mixedVsPd += both[pbd.size() + i] != pd[i] ? 1 : 0;
        pdVsAlone += pd[i] != alone[i] ? 1 : 0;
        pdDiffer += both[pbd.size() + i] != pd[i] || pd[i] != alone[i] ? 1 : 0;
    }
    std::cout << fmt::format("[pd simulation] PD particles: {} differ mixed vs PD-only scene, {} differ PD-only scene vs a Stepper alone\n", mixedVsPd, pdVsAlone);
    std::cout << fmt::format("[pd simulation] after {} frames: {} of {} PBD and {} of {} PD particles differ from "
                             "their single-solver runs (and a Stepper's alone)\n",
                             frames, pbdDiffer, pbd.size(), pdDiffer, pd.size());
    EXPECT_EQ(pbdDiffer, 0u);
    EXPECT_EQ(pdDiffer, 0u);
}

// A tetMesh (a bar from TetGen files) pinned by a region at one end, on the
// GPU: the pinned vertices stay exactly where they started, the free end
// sags and stops instead of falling.
TEST_F(PdSimulation, TetMeshPinnedByRegionHangs) {
    ScratchFolder folder;
    const TetMesh bar = buildTetBox({1.0, 0.2, 0.2}, {5, 1, 1});
    writeTetGenFiles(bar.positions, bar.tets, folder / "bar");
    const Scene scene = parseScene(R"({ "solver": { "substeps": 1, "pd": { "iterations": 10, "jacobiIterations": 40 } },
        "objects": [ { "type": "tetMesh", "node": "bar.node", "ele": "bar.ele", "position": [0, 1, 0], "mass": 2,
          "strain": { "stiffness": 1e6 }, "pinnedRegions": [ { "min": [-0.51, -1, -1], "max": [-0.49, 1, 1] } ] } ] })",
                                   folder / "bar.json");
    const SimModel model = buildModel(scene);
    const std::vector<glm::vec4> end = simulate(ctx(), scene, 60);
    ASSERT_EQ(end.size(), model.positions.size());
    uint32_t pinned = 0;
    float tipDrop = 0.0f;
    for (std::size_t i = 0; i < end.size(); ++i) {
        if (model.positions[i].w == 0.0f) {
            ++pinned;
            EXPECT_EQ(end[i], model.positions[i]) << "pinned particle " << i << " moved";
        }
        if (model.positions[i].x > 0.49f) tipDrop = std::max(tipDrop, model.positions[i].y - end[i].y);
    }
    std::cout << fmt::format("[tet mesh pins, GPU] {} of {} vertices pinned; free end sags {:.4f} m in 60 frames\n",
                             pinned, end.size(), tipDrop);
    EXPECT_EQ(pinned, 4u);
    EXPECT_GT(tipDrop, 1e-4f);
    EXPECT_LT(tipDrop, 0.2f);
}

}  // namespace
}  // namespace vksim::test
