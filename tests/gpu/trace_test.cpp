// --trace FILE.json (app/trace_output.h) from a headless run: valid JSON in
// the Trace Event Format; per frame one "frame" event and one "X" event per
// pass run, runs numbered per pass, every pass inside its frame, frames in
// order on the GPU clock.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/headless_app.h"
#include "gpu_harness.h"

namespace vksim::test {
namespace {

class Trace : public GpuTest {};

TEST_F(Trace, OneEventPerPassRunPerFrame) {
    Scene scene = clothScene({8, 8}, {1.0f, 1.0f}, 1.0f);
    ColliderDesc ground;  // a collider, so that the collision passes run too
    ground.name = "ground";
    scene.colliders.push_back(ground);
    const std::filesystem::path dir = std::filesystem::temp_directory_path();
    RunOptions options;
    options.headless = true;
    options.frames = 4;
    options.quiet = true;
    options.validate = true;
    options.traceFile = (dir / fmt::format("vksim_trace_test_{}.json", ::getpid())).string();
    options.timingsFile = (dir / fmt::format("vksim_trace_test_{}_timings.json", ::getpid())).string();
    ASSERT_EQ(runHeadless(options, scene), kExitOk);

    std::ifstream traceFile(options.traceFile);
    const nlohmann::json trace = nlohmann::json::parse(traceFile);  // throws (fails the test) if malformed
    std::ifstream timingsFile(options.timingsFile);
    const nlohmann::json timings = nlohmann::json::parse(timingsFile);
    std::filesystem::remove(options.traceFile);
    std::filesystem::remove(options.timingsFile);

    // What the timer says runs per frame, pass by pass.
    std::map<std::string, int> runsPerFrame;
    int totalRuns = 0;
    for (const nlohmann::json& pass : timings.at("passes")) {
        runsPerFrame[pass.at("name")] = pass.at("runs_per_frame").get<int>();
        totalRuns += pass.at("runs_per_frame").get<int>();
    }

    struct Frame {
        double begin = -1, end = -1;
        std::map<std::string, std::vector<int>> runs;  // pass -> run indices seen
        int events = 0;
    };
    std::map<int, Frame> frames;
    std::vector<std::pair<double, double>> passIntervals;  // to check nesting afterwards
    std::vector<int> passFrames;
    for (const nlohmann::json& event : trace.at("traceEvents")) {
        if (event.at("ph") == "M") continue;  // process and track names
        ASSERT_EQ(event.at("ph"), "X");
        ASSERT_TRUE(event.at("ts").is_number() && event.at("dur").is_number());
        ASSERT_TRUE(event.at("pid").is_number_integer() && event.at("tid").is_number_integer());
        EXPECT_GE(event.at("dur").get<double>(), 0.0);
        const int frame = event.at("args").at("frame").get<int>();
        const double ts = event.at("ts").get<double>(), end = ts + event.at("dur").get<double>();
        if (event.at("cat") == "frame") {
            EXPECT_EQ(event.at("name"), fmt::format("frame {}", frame));
            EXPECT_LT(frames[frame].begin, 0.0) << "two frame events for frame " << frame;
            frames[frame].begin = ts;
            frames[frame].end = end;
        } else {
            ASSERT_EQ(event.at("cat"), "pass");
            frames[frame].runs[event.at("name")].push_back(event.at("args").at("run").get<int>());
            ++frames[frame].events;
            passIntervals.push_back({ts, end});
            passFrames.push_back(frame);
        }
    }
    ASSERT_EQ(frames.size(), 4u);
    double previousBegin = -1;
    for (const auto& [index, frame] : frames) {
        EXPECT_EQ(frame.events, totalRuns) << "frame " << index;
        EXPECT_GT(frame.begin, previousBegin) << "frames in GPU order";
        previousBegin = frame.begin;
        ASSERT_EQ(frame.runs.size(), runsPerFrame.size()) << "frame " << index;
        for (const auto& [pass, runs] : frame.runs) {
            ASSERT_TRUE(runsPerFrame.contains(pass)) << pass;
            std::vector<int> expected(static_cast<size_t>(runsPerFrame.at(pass)));
            for (size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<int>(i);
            EXPECT_EQ(runs, expected) << pass << " in frame " << index;
        }
    }
    for (size_t i = 0; i < passIntervals.size(); ++i) {
        const Frame& frame = frames.at(passFrames[i]);
        EXPECT_GE(passIntervals[i].first, frame.begin);
        EXPECT_LE(passIntervals[i].second, frame.end);
    }
    std::cout << fmt::format("[trace] 4 frames x {} pass runs, each inside its frame\n", totalRuns);
}

}  // namespace
}  // namespace vksim::test
