// Loading time grows linearly with the input (issue 14): a cloth's `pinned`
// list was checked for duplicates pair by pair, so a million entries took
// minutes. The times are printed for the record; only a generous bound is
// asserted, as the machine running the tests may be loaded.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "../common/time_bounds.h"
#include "scene/scene_loader.h"

namespace vksim {
namespace {

constexpr unsigned kColumns = 1000;  // a 1000x1000 cloth has 10^6 distinct vertices to pin

// A scene whose cloth pins its first `count` vertices, row by row.
std::string sceneWithPins(unsigned count, bool repeatFirstAtEnd = false) {
    std::string text = R"({"objects": [{"type": "cloth", "resolution": [1000, 1000], "pinned": [)";
    text.reserve(text.size() + count * 12u);
    for (unsigned i = 0; i < count; ++i) {
        if (i > 0) text += ',';
        text += '[' + std::to_string(i % kColumns) + ',' + std::to_string(i / kColumns) + ']';
    }
    if (repeatFirstAtEnd) text += ",[0,0]";
    return text + "]}]}";
}

double secondsToParse(const std::string& text) {
    const auto start = std::chrono::steady_clock::now();
    const Scene scene = parseScene(text, "pins.json");
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(scene.cloths.size(), 1u);
    return elapsed.count();
}

TEST(SceneLoadingTime, AMillionPinnedEntriesLoadInSeconds) {
    double seconds = 0;
    for (unsigned count : {10'000u, 100'000u, 1'000'000u}) {
        seconds = secondsToParse(sceneWithPins(count));
        std::printf("[ time     ] %7u pinned entries: %.3f s\n", count, seconds);
    }
    EXPECT_LT(seconds, 10.0 * test::kTimeBoundScale) << "10^6 pinned entries";
}

TEST(SceneLoadingTime, ADuplicateAtTheEndOfAMillionPinsNamesTheFirst) {
    try {
        parseScene(sceneWithPins(1'000'000u, true), "pins.json");
        ADD_FAILURE() << "accepted a repeated pin";
    } catch (const SceneError& error) {
        EXPECT_EQ(std::string(error.what()),
                  "pins.json: /objects/0/pinned/1000000: vertex [0, 0] is already pinned by /objects/0/pinned/0");
    }
}

}  // namespace
}  // namespace vksim
