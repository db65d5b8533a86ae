// The overlay's requests, made through Viewer::controls() as its panels make
// them (the ImGui widgets themselves only set these fields): pause, single
// step, slow motion, reset, a scene that fails to load (the error is kept and
// the running scene goes on), a scene change, every display mode drawn in
// the window with the overlay on top, framing the scene and resetting the camera. Validation on; any message fails.
#include <gtest/gtest.h>

#include "world/world.h"
#include "app/viewer.h"
#include "app/viewer_providers.h"
#include "render/window.h"
#include "scene/scene_loader.h"
#include "vk/context.h"
#include "window_test_support.h"

namespace vksim {
namespace {

std::string sourcePath(const std::string& relative) { return std::string(VKSIM_SOURCE_DIR) + "/" + relative; }

void showFrames(Viewer& viewer, uint32_t count) { ASSERT_EQ(test::showFrames(viewer, count), count); }

TEST(ViewerControls, PauseStepSlowMotionResetLoadAndDisplayModes) {
    Window window("vksim controls test", 640, 360);
    VulkanContext ctx(test::validatedWindowContext(window));
    World sim(ctx, loadScene(sourcePath("tests/cli/small_cloth.json")), Viewer::kFramesInFlight);
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

// The overlay's simulation panels and the mouse, through ViewerProviders
// (what the windowed run installs): a Ctrl-drag pick from straight above
// the cloth's free edge grabs a particle, the drag moves it 0.3 m along x on
// the same depth plane and the particle reaches that target; the residual
// plot fills once its panel asks; the sliders list each PBD family and each
// collider, and moving one changes the running scene. Then the same for a
// scene with a PD cloth: its residual and energy plots and its sliders; and
// an XPBD cloth's energy plot.
TEST(ViewerControls, ProvidersPickDragResidualsAndSliders) {
    Window window("vksim providers test", 640, 360);
    VulkanContext ctx(test::validatedWindowContext(window));
    World sim(ctx, loadScene(sourcePath("tests/cli/small_cloth.json")), Viewer::kFramesInFlight);
    Viewer viewer(ctx, window, sim, {});
    ViewerProviders providers(viewer);
    const OverlayProviders p = providers.providers();
    viewer.setProviders(p);
    showFrames(viewer, 2);
    viewer.finish();

    // The free edge is the row of largest z (the pins hold row 0).
    const std::vector<glm::vec4> start = viewer.simulation().particles().readPositions();
    uint32_t edge = 0;
    for (uint32_t i = 1; i < start.size(); ++i)
        if (start[i].z > start[edge].z + 1e-6f) edge = i;
    const glm::vec3 above = glm::vec3(start[edge]) + glm::vec3(0.01f, 1.0f, 0.01f);
    ASSERT_TRUE(p.picker->beginPick(Ray{above, {0, -1, 0}}));
    const MouseAttachment grabbed = *viewer.simulation().dragged();
    p.picker->dragTo(Ray{above + glm::vec3(0.3f, 0, 0), {0, -1, 0}});
    const glm::vec3 target = viewer.simulation().dragged()->target;
    EXPECT_LT(glm::length(target - (grabbed.target + glm::vec3(0.3f, 0, 0))), 1e-5f) << "same depth plane";
    showFrames(viewer, 10);
    viewer.finish();
    const glm::vec3 dragged(viewer.simulation().particles().readPositions()[grabbed.particle]);
    std::printf("picked particle %u (edge particle %u), %.2e m from the drag target after 10 frames\n",
                grabbed.particle, edge, glm::length(dragged - target));
    EXPECT_LT(glm::length(dragged - target), 1e-3f);
    p.picker->release();
    EXPECT_FALSE(viewer.simulation().dragged().has_value());

    ASSERT_TRUE(p.convergence);
    p.convergence();  // the panel is open: tracking starts
    showFrames(viewer, 4);
    viewer.finish();
    const std::vector<ConvergenceSeries> convergence = p.convergence();
    ASSERT_EQ(convergence.size(), 1u);  // a PBD cloth: no PD series
    EXPECT_EQ(convergence[0].label, "PBD mean |C|");
    const std::vector<float>& residuals = convergence[0].values;
    ASSERT_EQ(residuals.size(), viewer.simulation().scene().solver.iterations);
    std::printf("residual per iteration:");
    for (float r : residuals) std::printf(" %.3e", r);
    std::printf("\n");
    for (float r : residuals) EXPECT_TRUE(std::isfinite(r) && r >= 0.0f);

    std::vector<LiveParameter> sliders = p.parameters();
    const auto find = [&](const std::string& group, const std::string& name) -> LiveParameter* {
        for (LiveParameter& s : sliders)
            if (s.group == group && s.name == name) return &s;
        return nullptr;
    };
    LiveParameter* stretch = find("small cloth: stretch", "stiffness");
    LiveParameter* friction = find("collider ball", "friction");
    LiveParameter* height = find("collider ball", "position y");
    LiveParameter* tilt = find("collider ball", "rotation z (deg)");
    ASSERT_TRUE(stretch && friction && height && tilt);
    EXPECT_NEAR(tilt->value, 0.0f, 1e-4f);
    stretch->set(0.5f);
    friction->set(0.7f);
    height->set(0.2f);
    tilt->set(90.0f);
    showFrames(viewer, 2);
    const Scene& scene = viewer.simulation().scene();
    EXPECT_EQ(scene.cloths[0].stretch.stiffness, 0.5f);
    EXPECT_EQ(scene.colliders[0].friction, 0.7f);
    EXPECT_EQ(scene.colliders[0].position.y, 0.2f);
    // 90 degrees about z: the quaternion (0, 0, sin 45, cos 45).
    EXPECT_NEAR(scene.colliders[0].rotation.z, std::sqrt(0.5f), 1e-5f);
    EXPECT_NEAR(scene.colliders[0].rotation.w, std::sqrt(0.5f), 1e-5f);
    viewer.finish();

    // A PBD and a PD cloth: three plots (PBD mean |C|, PD |b - Aq|, PD
    // energy at q^0 .. q^L), a slider per PD family, collider sizes.
    viewer.controls().loadRequest = sourcePath("scenes/pd_vs_pbd_cloth.json");
    showFrames(viewer, 1);
    ASSERT_TRUE(viewer.lastError().empty()) << viewer.lastError();
    p.convergence();  // a new simulation starts untracked: the open panel turns tracking on
    showFrames(viewer, 4);
    viewer.finish();
    const std::vector<ConvergenceSeries> mixed = p.convergence();
    ASSERT_EQ(mixed.size(), 3u);
    const SolverSettings& solver = viewer.simulation().scene().solver;
    EXPECT_EQ(mixed[0].values.size(), solver.iterations);
    EXPECT_EQ(mixed[1].values.size(), solver.pd.localIterations);
    ASSERT_EQ(mixed[2].values.size(), solver.pd.localIterations + 1);
    EXPECT_FALSE(mixed[2].fromZero);
    std::printf("PD energy per iteration [J]:");
    for (float e : mixed[2].values) std::printf(" %.5e", e);
    std::printf("\n");
    EXPECT_LT(mixed[2].values.back(), mixed[2].values.front());

    sliders = p.parameters();
    LiveParameter* pdStretch = find("pd cloth: stretch (pd)", "stiffness [N/m]");
    LiveParameter* radius = find("collider left ball", "radius");
    ASSERT_TRUE(pdStretch && radius);
    EXPECT_TRUE(pdStretch->logarithmic);
    const float before = pdStretch->value;
    pdStretch->set(before * 0.25f);
    radius->set(0.3f);
    showFrames(viewer, 2);
    EXPECT_EQ(viewer.simulation().scene().cloths[1].pd.stretch.stiffness, before * 0.25f);
    EXPECT_EQ(viewer.simulation().scene().colliders[0].radius, 0.3f);
    viewer.finish();

    // An XPBD cloth: its energy is defined, a second plot.
    viewer.controls().loadRequest = sourcePath("scenes/cloth_xpbd.json");
    showFrames(viewer, 1);
    ASSERT_TRUE(viewer.lastError().empty()) << viewer.lastError();
    p.convergence();
    showFrames(viewer, 4);
    viewer.finish();
    const std::vector<ConvergenceSeries> xpbd = p.convergence();
    ASSERT_EQ(xpbd.size(), 2u);
    EXPECT_EQ(xpbd[1].label, "XPBD energy g(p)");
    EXPECT_EQ(xpbd[1].values.size(), viewer.simulation().scene().solver.iterations);
    EXPECT_EQ(ctx.validationCounts().total(), 0u);
}

}  // namespace
}  // namespace vksim
