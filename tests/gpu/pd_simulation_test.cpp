// Projective dynamics inside the engine's Simulation (what headless and
// windowed runs drive): with PBD and PD objects in one scene, each solver
// steps only its own particles of the shared buffers, so each object moves
// exactly (bit for bit) as it does in a scene of its own, and the PD objects
// as PdSolver alone moves them.
#include <fmt/format.h>

#include "app/simulation.h"
#include "gpu_harness.h"
#include "scene/scene_loader.h"
#include "sim/model_builder.h"
#include "sim/pd_solver.h"

namespace vksim::test {
namespace {

class PdSimulation : public GpuTest {};

std::vector<glm::vec4> simulate(VulkanContext& ctx, const Scene& scene, uint32_t frames) {
    Simulation sim(ctx, scene, 1);
    for (uint32_t f = 0; f < frames; ++f) {
        ctx.submitAndWait([&](VkCommandBuffer cmd) { sim.recordFrame(cmd, 0); });
        sim.collectTimings(0);
    }
    return sim.solver().readPositions();
}

// PdSolver on its own, in particle buffers of its own.
std::vector<glm::vec4> simulatePdAlone(VulkanContext& ctx, const Scene& scene, uint32_t frames) {
    const SimModel model = buildModel(scene);
    GpuBuffer positions = makeStorageBuffer<glm::vec4>(ctx, model.positions, "alone: positions");
    GpuBuffer velocities = makeStorageBuffer<glm::vec4>(ctx, model.velocities, "alone: velocities");
    PdSolver solver(ctx, model, positions, velocities);
    GpuTimer timer(ctx, 1, PdSolver::passRunsPerFrame(model, scene.solver));
    solver.registerPasses(timer);
    for (uint32_t f = 0; f < frames; ++f) {
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            timer.beginFrame(cmd, 0);
            solver.recordFrame(cmd, scene.solver, timer);
            timer.endFrame(cmd);
        });
        timer.collect(0);
    }
    return positions.downloadArray<glm::vec4>();
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
    std::cout << fmt::format("[pd simulation] PD particles: {} differ mixed vs PD-only scene, {} differ PD-only scene vs PdSolver alone\n", mixedVsPd, pdVsAlone);
    std::cout << fmt::format("[pd simulation] after {} frames: {} of {} PBD and {} of {} PD particles differ from "
                             "their single-solver runs (and PdSolver's alone)\n",
                             frames, pbdDiffer, pbd.size(), pdDiffer, pd.size());
    EXPECT_EQ(pbdDiffer, 0u);
    EXPECT_EQ(pdDiffer, 0u);
}

}  // namespace
}  // namespace vksim::test
