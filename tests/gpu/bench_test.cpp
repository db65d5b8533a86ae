// `vksim bench` (bench/bench_runner.h, bench/bench_report.h) on whatever
// device runs the tests, at toy sizes: the structure of what it reports and
// writes, never its timings. And every pass a PBD or PD scene runs has a byte
// model.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/bench_report.h"
#include "bench/bench_runner.h"
#include "bench/pass_traffic.h"
#include "bench/solids_convergence.h"
#include "gpu_harness.h"
#include "run/frame_loop.h"
#include "scene/scene_loader.h"
#include "solvers/pd/pd_solver.h"
#include "world/world.h"

namespace vksim::test {
namespace {

class Bench : public GpuTest {};

const std::set<std::string> kClothFamilies{"pbd: predict",          "pbd: collide: generate",
                                           "pbd: stretch",          "pbd: bending",
                                           "pbd: collide: project", "pbd: update velocity",
                                           "pbd: friction/restitution", "normals", "finite check"};

// What every pass family row must hold (a byte model, elements and bytes,
// p95 >= median); returns the families of one size's rows.
std::set<std::string> checkPassRows(const SizeResult& r) {
    std::set<std::string> families;
    uint32_t dispatches = 0;
    for (const PassFamilyResult& p : r.passes) {
        families.insert(p.family);
        dispatches += p.runsPerStep;
        EXPECT_TRUE(p.hasByteModel) << p.family;
        EXPECT_GT(p.elementsPerStep, 0u) << p.family;
        EXPECT_GT(p.bytesPerStep, 0u) << p.family;
        EXPECT_GE(p.p95Ms, p.medianMs) << p.family;
    }
    EXPECT_EQ(dispatches, r.dispatchesPerStep) << r.scene << " " << r.size;
    return families;
}

TEST_F(Bench, ReportsEveryPassFamilyAtEverySizeAndWritesCsvAndJson) {
    BenchOptions options;
    options.filter = "cloth-pbd-per-colour";
    options.sizes = {6, 10};
    options.frames = 2;
    options.warmup = 1;
    options.quiet = true;
    const BenchReport report = runBenchmarks(ctx(), options);

    EXPECT_EQ(report.device.name, ctx().deviceInfo().name);
    EXPECT_GT(report.calibration.dispatchesPerFrame, 0u);
    EXPECT_GT(report.calibration.perDispatchMs, 0.0);
    EXPECT_GT(report.calibration.untimedPerDispatchMs, 0.0);
    ASSERT_EQ(report.results.size(), 2u);
    for (const SizeResult& r : report.results) {
        EXPECT_EQ(r.scene, "cloth-pbd-per-colour");
        EXPECT_GT(r.simulatedPerWallSecond, 0.0);
        // The same frames again without pass timestamps: a step time and a wall clock of their own.
        EXPECT_GT(r.untimedStepMedianMs, 0.0);
        EXPECT_GT(r.untimedWallMsPerStep, 0.0);
        EXPECT_GT(r.untimedSimulatedPerWallSecond, 0.0);
        EXPECT_GT(r.recordingMs, 0.0);
        EXPECT_GT(r.hostMsPerStep, 0.0);
        EXPECT_EQ(r.particles, uint64_t{r.size} * r.size);
        EXPECT_EQ(checkPassRows(r), kClothFamilies) << "size " << r.size;
        EXPECT_GT(r.constraints, 0u);
        // 4 substeps x 8 iterations of every stretch and bending constraint.
        EXPECT_EQ(r.constraintSolvesPerStep, 32 * r.constraints);
    }
    ASSERT_EQ(report.scaling.size(), 1u);
    EXPECT_TRUE(report.scaling[0].valid);
    const std::string table = formatBenchTable(report);
    EXPECT_NE(table.find("fixed cost per dispatch"), std::string::npos);
    EXPECT_NE(table.find("slope"), std::string::npos);

    const std::filesystem::path dir = std::filesystem::temp_directory_path();
    const std::string json = (dir / fmt::format("vksim_bench_test_{}.json", ::getpid())).string();
    const std::string csv = (dir / fmt::format("vksim_bench_test_{}.csv", ::getpid())).string();
    writeBenchFile(json, report);
    writeBenchFile(csv, report);

    std::ifstream jsonFile(json);
    const nlohmann::json doc = nlohmann::json::parse(jsonFile);
    for (const char* key : {"name", "type", "driver", "vulkan"}) EXPECT_TRUE(doc.at("device").contains(key)) << key;
    EXPECT_EQ(doc.at("frames"), 2);
    EXPECT_EQ(doc.at("warmup"), 1);
    EXPECT_TRUE(doc.at("dispatch_calibration").at("per_dispatch_ms").is_number());
    EXPECT_TRUE(doc.at("dispatch_calibration").at("timestamp_pair_ms").is_number());
    ASSERT_EQ(doc.at("results").size(), 2u);
    for (const nlohmann::json& result : doc.at("results")) {
        EXPECT_TRUE(result.at("step").at("median_ms").is_number());
        for (const char* key : {"step_median_ms", "wall_ms_per_step", "simulated_s_per_wall_s"})
            EXPECT_TRUE(result.at("without_pass_timestamps").at(key).is_number()) << key;
        for (const nlohmann::json& pass : result.at("passes"))
            for (const char* key : {"pass", "runs_per_step", "median_ms", "p95_ms", "elements_per_s", "bytes_per_step",
                                    "gb_per_s"})
                EXPECT_TRUE(pass.contains(key)) << key;
    }
    EXPECT_TRUE(doc.at("scaling").at(0).at("slope").is_number());

    std::ifstream csvFile(csv);
    std::string line;
    size_t comments = 0, rows = 0;
    std::string header;
    while (std::getline(csvFile, line)) {
        if (line.starts_with("#")) {
            ++comments;
        } else if (header.empty()) {
            header = line;
        } else {
            ++rows;
        }
    }
    EXPECT_GE(comments, 4u) << "device, frames, calibration, scaling";
    EXPECT_EQ(header, "scene,size,particles,constraints,dispatches_per_step,wall_ms_per_step,"
                      "simulated_s_per_wall_s,recording_ms,host_ms_per_step,untimed_step_median_ms,"
                      "untimed_wall_ms_per_step,untimed_simulated_s_per_wall_s,pass,element,runs_per_step,"
                      "elements_per_step,median_ms,p95_ms,elements_per_s,bytes_per_step,gb_per_s");
    EXPECT_EQ(rows, 2 * (kClothFamilies.size() + 1)) << "a row per pass family and a step total, per size";
    std::filesystem::remove(json);
    std::filesystem::remove(csv);
}

// The projective dynamics scenes at toy sizes: every PD pass family runs
// with a byte model (the cloth brings springs, triangle strain and bending;
// the bar tetrahedra and attachments), no PBD pass runs, the local passes
// count as constraint solves and the Jacobi pass as particles.
TEST_F(Bench, ProjectiveDynamicsScenesReportEveryPdPassFamily) {
    const std::set<std::string> shared{"pd: predict",        "pd: collide: generate", "pd: local collisions",
                                       "pd: gather rhs",     "pd: collide: project",
                                       "pd: update velocity", "pd: friction/restitution", "normals",
                                       "finite check"};
    std::set<std::string> cloth = shared, tets = shared;
    cloth.insert({"pd: local springs", "pd: local triangle strain", "pd: local bending"});
    tets.insert({"pd: local tet strain", "pd: local tet volume", "pd: local attachments"});

    BenchOptions options;
    options.filter = "-pd";
    options.sizes = {3, 4};
    options.frames = 2;
    options.warmup = 1;
    options.quiet = true;
    const BenchReport report = runBenchmarks(ctx(), options);
    ASSERT_EQ(report.results.size(), 6u);  // cloth-pd, cloth-pd-tiled, tet-pd
    constexpr uint32_t kLocalIterations = 10, kJacobiIterations = 20;  // bench_scenes.cpp, one substep
    for (const SizeResult& r : report.results) {
        ASSERT_TRUE(r.scene == "cloth-pd" || r.scene == "cloth-pd-tiled" || r.scene == "tet-pd") << r.scene;
        const bool isCloth = r.scene.starts_with("cloth-pd");
        const uint64_t particles =
            isCloth ? uint64_t{r.size} * r.size : uint64_t{4 * r.size + 1} * (r.size + 1) * (r.size + 1);
        EXPECT_EQ(r.particles, particles) << r.scene;
        std::set<std::string> families = checkPassRows(r);
        // The Jacobi iterations: a dispatch each, or all of a global step in
        // one workgroup ("auto" for these small systems on a CPU device);
        // the same sweeps either way.
        bool jacobiSeen = false;
        for (const PassFamilyResult& p : r.passes) {
            const bool perIteration =
                p.family == "pd: jacobi/chebyshev" || p.family == PdJacobiTiled::kPassName;
            if (perIteration) {
                EXPECT_EQ(p.family == PdJacobiTiled::kPassName, r.scene == "cloth-pd-tiled") << p.family;
            }
            if (perIteration || p.family == PdJacobiInWorkgroup::kPassName) {
                EXPECT_FALSE(jacobiSeen) << "both Jacobi paths ran";
                jacobiSeen = true;
                EXPECT_EQ(p.runsPerStep, perIteration ? kLocalIterations * kJacobiIterations : kLocalIterations);
                EXPECT_EQ(p.elementsPerStep, kLocalIterations * kJacobiIterations * particles);
                EXPECT_EQ(p.element, "PD particle");
                families.erase(p.family);
            }
            if (p.family.starts_with("pd: local")) {
                EXPECT_EQ(p.runsPerStep, kLocalIterations) << p.family;
            }
        }
        EXPECT_TRUE(jacobiSeen);
        EXPECT_EQ(families, isCloth ? cloth : tets) << r.scene << " " << r.size;
        EXPECT_GT(r.constraints, 0u);
        EXPECT_EQ(r.constraintSolvesPerStep, kLocalIterations * r.constraints) << r.scene;
    }
    ASSERT_EQ(report.scaling.size(), 3u);
    for (const ScalingResult& s : report.scaling) EXPECT_TRUE(s.valid) << s.scene;
}

// cloth-pbd on its default path: the cloth fits one workgroup, so a step is
// the solve, the normals and the finite check; the solve counts every
// constraint of every iteration of every substep (it has no byte model: it
// moves positions through shared memory, not device memory).
TEST_F(Bench, ClothPbdRunsInOneWorkgroupDispatch) {
    BenchOptions options;
    options.filter = "cloth-pbd";
    options.sizes = {8};
    options.frames = 2;
    options.warmup = 1;
    options.quiet = true;
    const BenchReport report = runBenchmarks(ctx(), options);
    ASSERT_EQ(report.results.size(), 3u);  // cloth-pbd, cloth-pbd-per-colour, cloth-pbd-clusters
    const SizeResult& workgroup = report.results[0];
    const SizeResult& perColour = report.results[1];
    const SizeResult& clusters = report.results[2];
    ASSERT_EQ(clusters.scene, "cloth-pbd-clusters");
    EXPECT_EQ(clusters.constraintSolvesPerStep, perColour.constraintSolvesPerStep);
    // A cloth that fits one cluster: per iteration one sweep and the collision projection.
    EXPECT_LT(4 * clusters.dispatchesPerStep, perColour.dispatchesPerStep);
    ASSERT_EQ(workgroup.scene, "cloth-pbd");
    EXPECT_EQ(workgroup.dispatchesPerStep, 3u);
    std::set<std::string> families;
    for (const PassFamilyResult& p : workgroup.passes) families.insert(p.family);
    EXPECT_EQ(families, (std::set<std::string>{"pbd: solve in workgroups", "normals", "finite check"}));
    EXPECT_EQ(workgroup.constraintSolvesPerStep, 32 * workgroup.constraints);
    EXPECT_EQ(workgroup.constraintSolvesPerStep, perColour.constraintSolvesPerStep);
    EXPECT_GT(perColour.dispatchesPerStep, 100u);
    EXPECT_GT(workgroup.simulatedPerWallSecond, 0.0);
}

// One colouring across the families: the shared colours are one pass
// family, "pbd: shared", whose byte model is the three families' (every
// constraint once per iteration), with fewer dispatches than the families'
// own colours on the per-colour path and the same constraint solves.
TEST_F(Bench, SharedColoursAreOnePassFamilyWithTheFamiliesBytes) {
    BenchOptions options;
    options.filter = "per-colour";
    options.sizes = {16};  // at 12 x 12 the families need only 25 colours of their own too
    options.frames = 2;
    options.warmup = 1;
    options.quiet = true;
    const BenchReport report = runBenchmarks(ctx(), options);
    const SizeResult* perFamily = nullptr;
    const SizeResult* shared = nullptr;
    for (const SizeResult& r : report.results) {
        if (r.scene == "cloth-pbd-per-colour") perFamily = &r;
        if (r.scene == "cloth-shared-colours-per-colour") shared = &r;
    }
    ASSERT_NE(perFamily, nullptr);
    ASSERT_NE(shared, nullptr);
    const std::set<std::string> families = checkPassRows(*shared);
    EXPECT_TRUE(families.contains("pbd: shared"));
    EXPECT_FALSE(families.contains("pbd: stretch"));
    EXPECT_FALSE(families.contains("pbd: bending"));
    EXPECT_LT(shared->dispatchesPerStep, perFamily->dispatchesPerStep);
    EXPECT_EQ(shared->constraintSolvesPerStep, perFamily->constraintSolvesPerStep);
    uint64_t familyBytes = 0, sharedBytes = 0;
    for (const PassFamilyResult& p : perFamily->passes)
        if (p.family == "pbd: stretch" || p.family == "pbd: bending") familyBytes += p.bytesPerStep;
    for (const PassFamilyResult& p : shared->passes)
        if (p.family == "pbd: shared") sharedBytes += p.bytesPerStep;
    EXPECT_EQ(sharedBytes, familyBytes);
}

TEST_F(Bench, FilterMatchingNothingIsAnError) {
    BenchOptions options;
    options.filter = "no-such-scene";
    EXPECT_THROW(runBenchmarks(ctx(), options), std::invalid_argument);
}

// A scene with soft pins and every collider shape runs every PBD pass
// family, attachments included: each must have a byte model.
// The cloth scene's PBD passes; the three solids' XPBD, VBD and PD passes;
// the character's keyframes, attachments and wind.
TEST_F(Bench, EveryPassThatRunsHasAByteModel) {
    std::set<std::string> families;
    for (const char* file :
         {"scenes/cloth_colliders.json", "scenes/solids_three_ways.json", "scenes/cloth_character.json"}) {
        Scene scene = loadScene(sourcePath(file));
        scene.solver.pbd.path = PbdPath::PerColour;  // the per-colour passes (the workgroup solve has none)
        World sim(ctx(), scene, kHeadlessFramesInFlight);
        simulateFrames(ctx(), sim, 1);
        for (const PassRunInterval& run : sim.timer().lastCollectedFrame().runs)
            families.insert(passFamily(sim.timer().passName(run.passId)));
    }
    EXPECT_TRUE(families.contains("pbd: attachment"));
    EXPECT_TRUE(families.contains("pbd: tetrahedron"));
    EXPECT_TRUE(families.contains("vbd: sweep"));
    EXPECT_TRUE(families.contains("keyframes: colliders"));
    EXPECT_TRUE(families.contains("pbd: attachments to bodies"));
    for (const std::string& family : families) EXPECT_NE(findPassTraffic(family), nullptr) << family;
}

// `bench --solids-convergence` on a 2^3-cell block at 1 and 64 iterations:
// every method reports both counts; vertex block descent reaches the
// reference's minimum G* (it converges to it: physics §16, measured 5e-11
// of |G*| at 64 sweeps on a 4^3 block), projective dynamics comes near it
// (its own energy's minimiser is another), XPBD stops short (its O(h^2)
// bias). The report prints every series.
TEST_F(Bench, SolidsConvergenceComparesTheThreeSolversOnOneObjective) {
    SolidsConvergenceOptions options;
    options.cells = 2;
    options.iterations = {1, 64};
    options.timingFrames = 1;
    const SolidsConvergenceReport report = runSolidsConvergence(ctx(), options);
    std::cout << formatSolidsConvergence(report);
    ASSERT_EQ(report.series.size(), 4u);
    EXPECT_LT(report.objectiveStar, report.objectiveAtY);
    for (const SolidsConvergenceSeries& s : report.series) {
        ASSERT_EQ(s.points.size(), 2u) << s.method << ": " << s.diverged;
        EXPECT_LT(s.points[1].gap, s.points[0].gap) << s.method;
        EXPECT_GT(s.points[1].gap, -1e-6) << s.method << ": below the minimum";
        EXPECT_GT(s.points[0].dispatches, 0u) << s.method;
    }
    const SolidsConvergenceSeries& vbd = report.series[2];
    ASSERT_EQ(vbd.method, "vbd");
    EXPECT_LT(vbd.points[1].gap, 1e-6);
    EXPECT_EQ(vbd.reached.back(), 1);
}

}  // namespace
}  // namespace vksim::test
