// The window's life cycle with the validation layer on (synchronization
// validation included): resizes to several sizes, an iconify/restore cycle,
// and the swapchain's out-of-date path, all driven from test code through
// GLFW between turns of the viewer's loop. Any validation message fails.
//
// What is really exercised under xvfb-run: Xvfb has no window manager, so
// glfwSetWindowSize takes effect at once (the server configures the window),
// and the next acquire or present reports the swapchain out of date or
// suboptimal, or the framebuffer-size callback fires first; either way the
// swapchain is rebuilt. glfwIconifyWindow, though, is only a request to a
// window manager, and with none it changes nothing: the loop goes on drawing.
// The minimised path itself (nothing drawn, swapchain kept) is exercised by
// the zero-extent recreate at the end, the call the loop makes when the
// framebuffer reports 0x0 (how Windows and some Wayland compositors report a
// minimised window).
#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "app/viewer.h"
#include "render/window.h"
#include "scene/scene_loader.h"
#include "vk/context.h"
#include "window_test_support.h"
#include "world/world.h"

namespace vksim {
namespace {

struct WindowedRun {
    Window window{"vksim window test", 640, 360};
    VulkanContext ctx{test::validatedWindowContext(window)};
    World sim{ctx, loadScene(std::string(VKSIM_SOURCE_DIR) + "/tests/cli/small_cloth.json"),
                   Viewer::kFramesInFlight};
};

using test::showFrames;

TEST(ViewerWindow, ResizeMinimiseRestoreWithoutValidationMessages) {
    WindowedRun run;
    Viewer viewer(run.ctx, run.window, run.sim, {});
    ASSERT_EQ(showFrames(viewer, 3), 3u);

    const VkExtent2D sizes[] = {{800, 600}, {320, 200}, {1, 1}, {1280, 720}, {200, 700}};
    for (const VkExtent2D size : sizes) {
        glfwSetWindowSize(run.window.handle(), int(size.width), int(size.height));
        ASSERT_EQ(showFrames(viewer, 3), 3u) << "at " << size.width << "x" << size.height;
        const VkExtent2D shown = viewer.swapchain().extent();
        std::printf("window %ux%u: swapchain %ux%u\n", size.width, size.height, shown.width, shown.height);
        EXPECT_EQ(shown.width, size.width);
        EXPECT_EQ(shown.height, size.height);
    }

    glfwIconifyWindow(run.window.handle());
    for (int turn = 0; turn < 5; ++turn) viewer.tick();  // drawn or skipped: see the comment at the top
    glfwRestoreWindow(run.window.handle());
    EXPECT_EQ(showFrames(viewer, 3), 3u);

    viewer.finish();
    EXPECT_EQ(run.ctx.validationCounts().total(), 0u);
}

TEST(ViewerWindow, ZeroExtentKeepsTheSwapchain) {
    WindowedRun run;
    Viewer viewer(run.ctx, run.window, run.sim, {});
    ASSERT_EQ(showFrames(viewer, 2), 2u);
    viewer.finish();
    const VkExtent2D before = viewer.swapchain().extent();
    // What the loop does for a minimised window reporting a 0x0 framebuffer.
    viewer.swapchain().recreate({0, 0});
    EXPECT_TRUE(viewer.swapchain().usable());
    EXPECT_EQ(viewer.swapchain().extent().width, before.width);
    EXPECT_EQ(showFrames(viewer, 2), 2u);
    viewer.finish();
    EXPECT_EQ(run.ctx.validationCounts().total(), 0u);
}

}  // namespace
}  // namespace vksim
