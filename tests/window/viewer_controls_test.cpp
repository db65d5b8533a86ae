// The overlay's requests, made through Viewer::controls() as its panels make
// them (the ImGui widgets themselves only set these fields): pause, single
// step, slow motion, reset, a scene that fails to load (the error is kept and
// the running scene goes on), a scene change, every display mode drawn in
// the window with the overlay on top, framing the scene and resetting the camera. Validation on; any message fails.
#include <gtest/gtest.h>

#include "app/simulation.h"
#include "app/viewer.h"
#include "render/window.h"
#include "scene/scene_loader.h"
#include "vk/context.h"

namespace vksim {
namespace {

std::string sourcePath(const std::string& relative) { return std::string(VKSIM_SOURCE_DIR) + "/" + relative; }

ContextOptions validatedContext(Window& window) {
    ContextOptions o;
    o.validation = true;
    if (const char* device = std::getenv("VKSIM_TEST_DEVICE")) o.deviceSelector = device;
    o.instanceExtensions = window.requiredInstanceExtensions();
    o.createSurface = [&window](VkInstance instance) { return window.createSurface(instance); };
    return o;
}

void showFrames(Viewer& viewer, uint32_t count) {
    uint32_t shown = 0;
    for (int turn = 0; turn < 200 && shown < count; ++turn) shown += viewer.tick() ? 1 : 0;
    ASSERT_EQ(shown, count);
}

TEST(ViewerControls, PauseStepSlowMotionResetLoadAndDisplayModes) {
    Window window("vksim controls test", 640, 360);
    VulkanContext ctx(validatedContext(window));
    Simulation sim(ctx, loadScene(sourcePath("tests/cli/small_cloth.json")), Viewer::kFramesInFlight);
    Viewer viewer(ctx, window, sim, {});
    const auto recorded = [&] { return viewer.simulation().framesRecorded(); };
    showFrames(viewer, 2);
    EXPECT_EQ(recorded(), 2u);

    viewer.controls().paused = true;
    showFrames(viewer, 3);
    EXPECT_EQ(recorded(), 2u) << "paused: frames are drawn, nothing is simulated";
    viewer.controls().stepOnce = true;
    showFrames(viewer, 2);
    EXPECT_EQ(recorded(), 3u) << "a single step while paused";

    viewer.controls().paused = false;
    viewer.controls().slowMotion = 3;
    showFrames(viewer, 6);
    EXPECT_EQ(recorded(), 5u) << "slow motion 1/3: one simulated frame every third shown";
    viewer.controls().slowMotion = 1;

    viewer.controls().resetRequested = true;
    showFrames(viewer, 1);
    EXPECT_EQ(recorded(), 1u) << "reset rebuilds the simulation from frame 0";

    viewer.controls().loadRequest = sourcePath("tests/bad_scenes/syntax_error.json");
    showFrames(viewer, 1);
    std::printf("load error shown in the overlay: %s\n", viewer.lastError().c_str());
    EXPECT_NE(viewer.lastError().find("syntax_error.json"), std::string::npos);
    EXPECT_EQ(viewer.simulation().scene().name, "small cloth") << "the running scene goes on";

    viewer.controls().loadRequest = sourcePath("scenes/pd_bar.json");
    showFrames(viewer, 1);
    EXPECT_TRUE(viewer.lastError().empty());
    EXPECT_NE(viewer.simulation().scene().name, "small cloth");

    viewer.controls().loadRequest = sourcePath("tests/cli/small_cloth.json");
    for (size_t mode = 0; mode < kDisplayModeNames.size(); ++mode) {
        viewer.controls().display.mode = DisplayMode(mode);
        viewer.controls().display.colliders = mode % 2 == 0;
        showFrames(viewer, 2);
    }
    // F (frame the scene: a read-back of the positions between frames) and R.
    viewer.controls().frameRequested = true;
    showFrames(viewer, 1);
    viewer.controls().cameraResetRequested = true;
    showFrames(viewer, 1);
    viewer.finish();
    EXPECT_EQ(ctx.validationCounts().total(), 0u);
}

}  // namespace
}  // namespace vksim
