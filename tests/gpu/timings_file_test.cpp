// --timings FILE: the JSON holds the device, the frame count and every pass
// in step order with its median and max; the CSV has one row per pass.
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "app/headless_app.h"
#include "gpu_harness.h"
#include "scene/scene_loader.h"

namespace vksim::test {
namespace {

class TimingsFile : public GpuTest {};

std::filesystem::path tempFile(const std::string& name) {
    return std::filesystem::temp_directory_path() / ("vksim_test_" + std::to_string(::getpid()) + "_" + name);
}

TEST_F(TimingsFile, JsonAndCsvListEveryPassInStepOrder) {
    Scene scene = loadScene(sourcePath("scenes/cloth_sphere.json"));
    scene.solver.pbd.path = PbdPath::PerColour;  // every stage a pass of its own
    RunOptions options;
    options.headless = true;
    options.frames = 5;
    options.quiet = true;
    options.validate = true;

    options.timingsFile = tempFile("timings.json").string();
    ASSERT_EQ(runHeadless(options, scene), kExitOk);
    std::ifstream jsonFile(options.timingsFile);
    const nlohmann::json doc = nlohmann::json::parse(jsonFile);
    std::filesystem::remove(options.timingsFile);
    EXPECT_FALSE(doc.at("device").get<std::string>().empty());
    EXPECT_EQ(doc.at("frames").get<int>(), 5);
    const nlohmann::json& passes = doc.at("passes");
    ASSERT_GE(passes.size(), 8u);
    EXPECT_EQ(passes.front().at("name"), "pbd: predict");
    EXPECT_EQ(passes[1].at("name"), "pbd: collide: generate");
    // No normals: a headless run without --export or --screenshot does not compute them.
    EXPECT_EQ(passes[passes.size() - 2].at("name"), "pbd: friction/restitution");
    EXPECT_EQ(passes.back().at("name"), "finite check");  // the always-on NaN/Inf check ends every frame
    bool sawColour = false;
    for (const nlohmann::json& pass : passes) {
        EXPECT_GE(pass.at("median_ms").get<double>(), 0.0);
        EXPECT_GE(pass.at("max_ms").get<double>(), pass.at("median_ms").get<double>());
        sawColour |= pass.at("name").get<std::string>().starts_with("pbd: stretch colour ");
    }
    EXPECT_TRUE(sawColour) << "per-colour passes must be visible in the report";
    EXPECT_GT(doc.at("step").at("median_ms").get<double>(), 0.0);

    options.timingsFile = tempFile("timings.csv").string();
    ASSERT_EQ(runHeadless(options, scene), kExitOk);
    std::ifstream csvFile(options.timingsFile);
    std::string header;
    std::getline(csvFile, header);
    EXPECT_EQ(header, "pass,runs_per_frame,median_ms,max_ms,mean_ms");
    size_t rows = 0;
    for (std::string line; std::getline(csvFile, line);) ++rows;
    std::filesystem::remove(options.timingsFile);
    EXPECT_EQ(rows, passes.size() + 1);  // + the step total
}

}  // namespace
}  // namespace vksim::test
