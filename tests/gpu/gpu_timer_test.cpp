// The timer keeps the last GpuTimer::kKeptFrames samples, not every frame: a
// sample is about 500 bytes, and a viewer left open grew by 100 MB an hour
// before (scripts/soak.sh found it). Frames of one timed pass with no work
// are cheap, so the test collects past the bound and checks the report.
#include "gpu_harness.h"
#include "vk/gpu_timer.h"

namespace vksim::test {
namespace {

class GpuTimerTest : public GpuTest {};

TEST_F(GpuTimerTest, KeepsABoundedHistory) {
    GpuTimer timer(ctx(), 1, 1);
    const uint32_t pass = timer.registerPass("empty pass");
    const uint32_t frames = GpuTimer::kKeptFrames + 25;
    for (uint32_t f = 0; f < frames; ++f) {
        ctx().submitAndWait([&](VkCommandBuffer cmd) {
            timer.beginFrame(cmd, 0);
            timer.beginPass(cmd, pass);
            timer.endPass(cmd);
            timer.endFrame(cmd);
        });
        timer.collect(0);
        if (f == 99) {
            EXPECT_EQ(timer.report().frames, 100u) << "every frame while under the bound";
        }
    }
    const TimingReport report = timer.report();
    EXPECT_EQ(report.frames, GpuTimer::kKeptFrames);
    ASSERT_EQ(report.passes.size(), 1u);
    EXPECT_EQ(report.passes[0].runsPerFrame, 1u);
    EXPECT_EQ(timer.report(10).frames, 10u);
}

}  // namespace
}  // namespace vksim::test
