// The benchmark's statistics and pass grouping (bench/bench_stats.h,
// bench/pass_traffic.h): order statistics, the log-log slope of the scaling
// check, colour passes grouped into families, byte models for every family.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_scenes.h"
#include "bench/bench_stats.h"
#include "bench/pass_traffic.h"
#include "solvers/model_builder.h"

namespace vksim {
namespace {

TEST(BenchStats, MedianAndNearestRankPercentile) {
    EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2.0);
    EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
    EXPECT_DOUBLE_EQ(median({}), 0.0);
    std::vector<double> twenty;
    for (int i = 1; i <= 20; ++i) twenty.push_back(i);
    EXPECT_DOUBLE_EQ(percentile(twenty, 95), 19.0);  // ceil(0.95 * 20) = 19th smallest
    EXPECT_DOUBLE_EQ(percentile(twenty, 100), 20.0);
    EXPECT_DOUBLE_EQ(percentile({7}, 95), 7.0);
}

TEST(BenchStats, LogLogSlopeOfAPowerLaw) {
    const std::vector<double> x{1e3, 4e3, 1.6e4, 6.4e4};
    std::vector<double> y;
    for (double v : x) y.push_back(0.02 * std::pow(v, 1.5));
    const LogLogFit fit = fitLogLog(x, y);
    ASSERT_TRUE(fit.valid);
    EXPECT_NEAR(fit.slope, 1.5, 1e-12);
    EXPECT_NEAR(fit.intercept, std::log(0.02), 1e-10);
    // Fixed cost plus linear work: the slope starts below 1.
    std::vector<double> withFixedCost;
    for (double v : x) withFixedCost.push_back(50.0 + 0.001 * v);
    EXPECT_LT(fitLogLog(x, withFixedCost).slope, 0.5);
    EXPECT_FALSE(fitLogLog(std::vector<double>{5}, std::vector<double>{1}).valid);
    EXPECT_FALSE(fitLogLog(std::vector<double>{5, 5}, std::vector<double>{1, 2}).valid);
}

TEST(PassTraffic, ColourPassesFormFamiliesWithByteModels) {
    EXPECT_EQ(passFamily("pbd: stretch colour 0"), "pbd: stretch");
    EXPECT_EQ(passFamily("pbd: bending colour 17"), "pbd: bending");
    EXPECT_EQ(passFamily("pbd: stretch overflow"), "pbd: stretch");
    EXPECT_EQ(passFamily("overflow"), "overflow");
    EXPECT_EQ(passFamily("pbd: collide: generate"), "pbd: collide: generate");
    EXPECT_EQ(passFamily("a colour of its own"), "a colour of its own");
    for (const char* family :
         {"pbd: predict", "pbd: collide: generate", "pbd: stretch", "pbd: bending", "pbd: attachment",
          "pbd: collide: project", "pbd: update velocity", "pbd: friction/restitution", "normals", "finite check"}) {
        const PassTraffic* row = findPassTraffic(family);
        ASSERT_NE(row, nullptr) << family;
        EXPECT_GT(row->readBytes, 0u) << family;
    }
    // A distance constraint: its record 16 + 2 particles 32 + material 16 +
    // lambda 4 read; 2 particles 32 + lambda 4 written.
    EXPECT_EQ(findPassTraffic("pbd: stretch")->readBytes, 68u);
    EXPECT_EQ(findPassTraffic("pbd: stretch")->writeBytes, 36u);
    EXPECT_EQ(findPassTraffic("no such pass"), nullptr);
}

// The tear and split passes (docs/physics.md §1, "Tearing"): once a frame,
// several runs of different work under one name, each row modelling all of
// them (one sweep a step); their threads counted from the model.
TEST(PassTraffic, TearAndSplitRowsModelTheirRunsOnceAFrame) {
    const BenchScene *split = nullptr, *tearing = nullptr;
    for (const BenchScene& scene : benchScenes()) {
        if (scene.name == "cloth-tearing-split") split = &scene;
        if (scene.name == "cloth-tearing") tearing = &scene;
    }
    ASSERT_NE(split, nullptr);
    ASSERT_NE(tearing, nullptr);
    constexpr uint32_t n = 8;
    const SimModel model = buildModel(split->build(n));
    ASSERT_EQ(model.pbd.splitCloths.size(), 1u);
    const uint64_t vertices = n * n, spares = model.pbd.splitCloths[0].spareCount;
    const uint64_t triangles = 2 * (n - 1) * (n - 1);
    const uint64_t distance = model.pbd.distance.size(), bending = model.pbd.bending.size();
    EXPECT_EQ(spares, vertices / 4);
    EXPECT_EQ(model.pbd.splitCloths[0].triangleCount, triangles);
    const PassTraffic& tear = *findPassTraffic("pbd: tear");
    EXPECT_EQ(tear.sweepsPerStep, 1u);
    EXPECT_EQ(elementsPerSweep(tear.element, model), distance);
    // Stretch run 52 + 4 per constraint; bending 16, triangle 40.
    EXPECT_EQ(bytesPerSweep(tear, model), distance * 56 + bending * 16 + triangles * 40);
    const PassTraffic& splitting = *findPassTraffic("pbd: split");
    EXPECT_EQ(splitting.sweepsPerStep, 1u);
    EXPECT_EQ(elementsPerSweep(splitting.element, model), vertices + spares);
    // Count 288 + scan 8 + apply 152 read, 36 written per particle; reindex
    // 24 per triangle, 48 per stretch and 84 per bending constraint.
    EXPECT_EQ(bytesPerSweep(splitting, model),
              (vertices + spares) * (288 + 8 + 152 + 36) + triangles * 24 + distance * 48 + bending * 84);
    // A cloth that tears without splitting: no split threads.
    const SimModel torn = buildModel(tearing->build(n));
    EXPECT_EQ(elementsPerSweep(splitting.element, torn), 0u);
    EXPECT_EQ(bytesPerSweep(tear, torn), distance * 56 + bending * 16 + triangles * 40);
    std::cout << fmt::format("[tear traffic] cloth-tearing-split {}: {} B tear, {} B split a frame\n", n,
                             bytesPerSweep(tear, model), bytesPerSweep(splitting, model));
}

// The projective dynamics rows: every PD pass has one; the gather and the
// Jacobi pass add what their rows hold (gather slots, off-diagonal entries),
// counted from the model; the local passes count elements of their family.
TEST(PassTraffic, ProjectiveDynamicsRowsCountTheirElementsAndRowItems) {
    for (const char* family :
         {"pd: predict", "pd: collide: generate", "pd: local springs", "pd: local triangle strain",
          "pd: local tet strain", "pd: local tet volume", "pd: local bending", "pd: local attachments",
          "pd: local collisions", "pd: gather rhs", "pd: jacobi/chebyshev", "pd: collide: project",
          "pd: update velocity", "pd: friction/restitution"})
        EXPECT_NE(findPassTraffic(family), nullptr) << family;
    const BenchScene* bar = nullptr;
    for (const BenchScene& scene : benchScenes())
        if (scene.name == "tet-pd") bar = &scene;
    ASSERT_NE(bar, nullptr);
    const SimModel model = buildModel(bar->build(2));  // 8 x 2 x 2 cells
    const PdModel& pd = model.pd;
    EXPECT_EQ(pd.particleCount, bar->particleCount(2));
    EXPECT_EQ(model.pbd.particleCount, 0u);
    EXPECT_EQ(pd.tetStrain.size(), 6u * 8 * 2 * 2);
    EXPECT_EQ(pd.attachments.size(), 9u);  // the -x face's 3 x 3 vertices
    const PassTraffic& jacobi = *findPassTraffic("pd: jacobi/chebyshev");
    EXPECT_EQ(bytesPerSweep(jacobi, model), pd.particleCount * (124u + 16u) + pd.offDiagonal.size() * 24u);
    const PassTraffic& gather = *findPassTraffic("pd: gather rhs");
    EXPECT_EQ(bytesPerSweep(gather, model), pd.particleCount * 64u + pd.gatherSlots.size() * 20u);
    EXPECT_EQ(pd.gatherSlots.size(), 4 * (pd.tetStrain.size() + pd.tetVolume.size()) + pd.attachments.size());
    const PassTraffic& tets = *findPassTraffic("pd: local tet strain");
    EXPECT_EQ(elementsPerSweep(tets.element, model), pd.tetStrain.size());
    EXPECT_EQ(bytesPerSweep(tets, model), pd.tetStrain.size() * (144u + 64u));
    // The PBD particle passes count PBD particles only, the finite check all.
    EXPECT_EQ(elementsPerSweep(findPassTraffic("pbd: predict")->element, model), 0u);
    EXPECT_EQ(elementsPerSweep(findPassTraffic("finite check")->element, model), pd.particleCount);
    std::cout << fmt::format("[pd traffic] tet-pd 2: {} particles, {} off-diagonal entries, {} gather slots; "
                             "Jacobi {} B/sweep, gather {} B/sweep\n",
                             pd.particleCount, pd.offDiagonal.size(), pd.gatherSlots.size(),
                             bytesPerSweep(jacobi, model), bytesPerSweep(gather, model));
}

// The mass-spring rows: every springs pass has one; the gathers add their
// incidence lists and the Newton passes the blocks of their matrix rows,
// counted from the model.
TEST(PassTraffic, MassSpringRowsCountTheirIncidenceListsAndBlocks) {
    for (const char* family :
         {"springs: predict", "springs: collide: generate", "springs: forces", "springs: forces (second stage)",
          "springs: newton assemble", "springs: jacobi/chebyshev", "springs: line search",
          "springs: line search choose", "springs: newton update", "springs: vbd init",
          "springs: vbd", "springs: energy", "springs: mouse drag", "springs: collide: project",
          "springs: update velocity", "springs: friction/restitution"})
        EXPECT_NE(findPassTraffic(family), nullptr) << family;
    EXPECT_EQ(passFamily("springs: vbd colour 3"), "springs: vbd");
    const BenchScene* cloth = nullptr;
    for (const BenchScene& scene : benchScenes())
        if (scene.name == "cloth-springs") cloth = &scene;
    ASSERT_NE(cloth, nullptr);
    const SimModel model = buildModel(cloth->build(6));
    const MsModel& ms = model.springs;
    ASSERT_EQ(ms.particleCount, 36u);
    EXPECT_EQ(model.pbd.particleCount, 0u);
    const PassTraffic& jacobi = *findPassTraffic("springs: jacobi/chebyshev");
    EXPECT_EQ(elementsPerSweep(jacobi.element, model), 36u);
    EXPECT_EQ(bytesPerSweep(jacobi, model), 36u * (124u + 16u) + ms.blockColumns.size() * 80u);
    const PassTraffic& assemble = *findPassTraffic("springs: newton assemble");
    EXPECT_EQ(bytesPerSweep(assemble, model), 36u * (144u + 128u) + ms.incidentSprings.size() * 152u +
                                                  ms.blockColumns.size() * 48u + ms.quadratic.size() * 128u);
    const PassTraffic& forces = *findPassTraffic("springs: forces");
    EXPECT_EQ(bytesPerSweep(forces, model), 36u * 96u + ms.incidentSprings.size() * 56u +
                                                ms.incidentHinges.size() * 100u + ms.quadratic.size() * 32u);
    EXPECT_TRUE(evaluatesSprings(forces));
    EXPECT_TRUE(evaluatesSprings(assemble));
    EXPECT_TRUE(evaluatesSprings(*findPassTraffic("springs: vbd")));
    EXPECT_FALSE(evaluatesSprings(*findPassTraffic("springs: energy")));
    EXPECT_FALSE(evaluatesSprings(jacobi));
    EXPECT_EQ(elementsPerSweep(findPassTraffic("springs: mouse drag")->element, model), 1u);
    std::cout << fmt::format("[springs traffic] cloth-springs 6: {} particles, {} springs, {} incidences, {} blocks, "
                             "{} quadratic entries, {} hinge incidences\n",
                             ms.particleCount, ms.springs.size(), ms.incidentSprings.size(), ms.blockColumns.size(),
                             ms.quadratic.size(), ms.incidentHinges.size());
}

}  // namespace
}  // namespace vksim
