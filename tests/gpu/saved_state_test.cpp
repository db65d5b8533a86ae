// World::saveState / loadState: a state saved at one frame and loaded into a
// fresh world steps on to the same bits as the world that never stopped, for
// every shipped scene (every solver, path and coupling they use); a state of
// another model, or damaged bytes, is refused with one line and changes
// nothing.
#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "diagnostics/state_hash.h"
#include "gpu_harness.h"
#include "scene/scene_loader.h"
#include "world/world.h"
#include "world_frames.h"

namespace vksim::test {
namespace {

class SavedStateTest : public GpuTest {};
class ShippedSceneState : public GpuTest, public ::testing::WithParamInterface<std::string> {
protected:
    void SetUp() override { GpuTest::SetUp(); }
    void TearDown() override { GpuTest::TearDown(); }
};

std::vector<std::string> shippedScenes() {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(sourcePath("scenes")))
        if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

// Frames before the save: enough that every scene's objects move, touch
// their colliders or each other, and use their solver's iterates. After it,
// two: the first steps from every restored section (a section left out or
// restored wrong changes its bits), the second from what the first made of
// them; the whole saved state is compared, not only the hash.
constexpr uint32_t kFramesBefore = 8;
constexpr uint32_t kFramesAfter = 2;

TEST_P(ShippedSceneState, ContinuesBitForBitAfterLoading) {
    const Scene scene = loadScene(sourcePath("scenes/" + GetParam() + ".json"));
    World straight(ctx(), scene, 1);
    runWorldFrames(ctx(), straight, kFramesBefore);
    const std::string saved = straight.saveState();
    runWorldFrames(ctx(), straight, kFramesAfter);

    World restored(ctx(), scene, 1);
    restored.loadState(saved);
    EXPECT_EQ(restored.framesRecorded(), kFramesBefore);
    runWorldFrames(ctx(), restored, kFramesAfter);

    EXPECT_EQ(formatHash(restored.stateHash()), formatHash(straight.stateHash()));
    // Every section, not only the hashed positions and poses: velocities,
    // iterates, contact records and stats.
    const std::string a = straight.saveState(), b = restored.saveState();
    EXPECT_TRUE(a == b) << "the states after " << kFramesAfter << " more frames differ (" << a.size() << " and "
                        << b.size() << " bytes)";
    std::cout << fmt::format("[saved state] {}: {} bytes, state-hash {} at frame {}\n", GetParam(), saved.size(),
                             formatHash(restored.stateHash()), restored.framesRecorded());
}

INSTANTIATE_TEST_SUITE_P(EveryShippedScene, ShippedSceneState, ::testing::ValuesIn(shippedScenes()),
                         [](const ::testing::TestParamInfo<std::string>& scene) { return scene.param; });

// What the refusals say, with the world left as it was.
std::string refusal(World& world, std::string_view bytes, std::string_view source = "state.bin") {
    const uint64_t before = world.stateHash();
    try {
        world.loadState(bytes, source);
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(world.stateHash(), before) << "a refused state changed the world";
        return e.what();
    }
    return "";
}

TEST_F(SavedStateTest, StateOfAnotherModelIsRefused) {
    World cloth(ctx(), loadScene(sourcePath("scenes/cloth_sphere.json")), 1);
    World jelly(ctx(), loadScene(sourcePath("scenes/jelly.json")), 1);
    runWorldFrames(ctx(), jelly, 2);
    const std::string message = refusal(jelly, cloth.saveState());
    std::cout << "[saved state] " << message << "\n";
    EXPECT_TRUE(message.starts_with("state.bin: a state of another model (1 object(s) (cloth), ")) << message;
    EXPECT_NE(message.find("scenes/cloth_sphere.json"), std::string::npos) << message;
    EXPECT_NE(message.find("this world has"), std::string::npos) << message;

    // The same cloth with other pins is another model: its pins are state
    // (inverse masses in the positions' w).
    Scene repinned = loadScene(sourcePath("scenes/cloth_sphere.json"));
    repinned.cloths[0].pinned.push_back({1, 1});
    World other(ctx(), repinned, 1);
    EXPECT_TRUE(refusal(other, cloth.saveState()).starts_with("state.bin: a state of another model")) ;
}

TEST_F(SavedStateTest, DamagedBytesAreRefused) {
    World world(ctx(), loadScene(sourcePath("scenes/springs_cloth.json")), 1);
    runWorldFrames(ctx(), world, 3);
    const std::string saved = world.saveState();

    std::string flipped = saved;
    flipped[flipped.size() / 2] ^= 0x10;  // inside the positions
    const std::string damaged = "state.bin: damaged or truncated vksim state: its checksum does not match its bytes";
    EXPECT_EQ(refusal(world, flipped), damaged);
    EXPECT_EQ(refusal(world, saved.substr(0, saved.size() - 9)), damaged);
    EXPECT_EQ(refusal(world, "{\"objects\": []}", "scene.json"),
              "scene.json: not a vksim state (it does not start with \"VKSIMST\")");

    SavedState older = decodeState(saved, "state");
    older.vksimVersion = "0.0.1";
    EXPECT_TRUE(refusal(world, encodeState(older)).starts_with("state.bin: a state saved by vksim 0.0.1; this is vksim "));
    // A section of another size: the same model stepped by a build whose
    // buffers differ (the format version guards this; the sizes are checked
    // all the same).
    SavedState resized = decodeState(saved, "state");
    resized.sections.back().bytes.pop_back();
    const std::string message = refusal(world, encodeState(resized));
    std::cout << "[saved state] " << message << "\n";
    EXPECT_TRUE(message.starts_with(fmt::format("state.bin: state section {} is \"{}\" of ", resized.sections.size() - 1,
                                                resized.sections.back().name)))
        << message;
}

// Parameters are not state: a state loads into the same model with other
// materials and settings, which it then steps with.
TEST_F(SavedStateTest, LoadsIntoTheSameModelWithOtherParameters) {
    const Scene scene = loadScene(sourcePath("scenes/cloth_sphere.json"));
    World first(ctx(), scene, 1);
    runWorldFrames(ctx(), first, 5);
    Scene stiffer = scene;
    stiffer.solver.substeps += 2;
    stiffer.colliders.at(0).friction = 0.9f;
    World second(ctx(), stiffer, 1);
    second.loadState(first.saveState());
    EXPECT_EQ(second.stateHash(), first.stateHash());
    runWorldFrames(ctx(), first, 3);
    runWorldFrames(ctx(), second, 3);
    EXPECT_NE(second.stateHash(), first.stateHash()) << "the other settings changed nothing";
}

// reset() after a load goes back to the scene's initial state.
TEST_F(SavedStateTest, ResetAfterLoadingStartsFromTheScene) {
    const Scene scene = loadScene(sourcePath("scenes/pd_bar.json"));
    World fresh(ctx(), scene, 1);
    const uint64_t initial = fresh.stateHash();
    World world(ctx(), scene, 1);
    runWorldFrames(ctx(), world, 4);
    World loaded(ctx(), scene, 1);
    loaded.loadState(world.saveState());
    loaded.reset();
    EXPECT_EQ(loaded.stateHash(), initial);
    EXPECT_EQ(loaded.framesRecorded(), 0u);
}

}  // namespace
}  // namespace vksim::test
