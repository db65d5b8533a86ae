// Pass timestamps only where someone reads them (World::setPassTimings): a
// frame without them writes only its first and last timestamps, and still
// names and counts every pass run. The timestamps change nothing the GPU
// computes, so the state is the same, bit for bit; the first frame after a
// change records anew instead of replaying the other kind.
#include <cmath>
#include <iostream>

#include <fmt/format.h>

#include "diagnostics/state_hash.h"
#include "gpu_harness.h"
#include "vk/gpu_timer.h"
#include "world/world.h"
#include "world_frames.h"

namespace vksim::test {
namespace {

class PassTimings : public GpuTest {};

// The per-colour path: hundreds of timed passes a frame, the most a
// timestamp pair around each can cost.
Scene perColourCloth() {
    Scene scene = clothScene({12, 10}, {1.0f, 1.0f}, 1.0f);
    scene.solver.pbd.path = PbdPath::PerColour;
    return scene;
}

TEST_F(PassTimings, OffGivesTheSameBitsTheSameRunsAndAStepTime) {
    const Scene scene = perColourCloth();
    World timed(ctx(), scene, 1), untimed(ctx(), scene, 1);
    EXPECT_TRUE(untimed.passTimings());
    untimed.setPassTimings(false);
    runWorldFrames(ctx(), timed, 6);
    runWorldFrames(ctx(), untimed, 6);
    EXPECT_EQ(formatHash(timed.stateHash()), formatHash(untimed.stateHash()));

    const FrameTimeline& withTimes = timed.timer().lastCollectedFrame();
    const FrameTimeline& without = untimed.timer().lastCollectedFrame();
    EXPECT_TRUE(withTimes.passesTimed);
    EXPECT_FALSE(without.passesTimed);
    ASSERT_EQ(without.runs.size(), withTimes.runs.size());
    ASSERT_GT(without.runs.size(), 100u) << "the per-colour path";
    for (size_t k = 0; k < without.runs.size(); ++k) {
        EXPECT_EQ(without.runs[k].passId, withTimes.runs[k].passId);
        EXPECT_EQ(without.runs[k].run, withTimes.runs[k].run);
        EXPECT_TRUE(std::isnan(without.runs[k].beginNs) && std::isnan(without.runs[k].endNs));
        EXPECT_LE(withTimes.runs[k].beginNs, withTimes.runs[k].endNs);
    }

    const TimingReport a = timed.timer().report(), b = untimed.timer().report();
    ASSERT_EQ(a.passes.size(), b.passes.size());
    for (size_t p = 0; p < a.passes.size(); ++p) {
        EXPECT_EQ(a.passes[p].name, b.passes[p].name);
        EXPECT_EQ(a.passes[p].runsPerFrame, b.passes[p].runsPerFrame) << a.passes[p].name;
        EXPECT_TRUE(a.passes[p].timed);
        EXPECT_FALSE(b.passes[p].timed);
        EXPECT_EQ(b.passes[p].medianMs, 0.0);
    }
    EXPECT_TRUE(b.step.timed);
    EXPECT_GT(b.step.medianMs, 0.0);
    std::cout << fmt::format("[pass timings] {} passes a frame; step median {:.3f} ms timing each, {:.3f} ms not\n",
                             without.runs.size(), a.step.medianMs, b.step.medianMs);
}

// Turning them on again: the next frame records anew with timestamps (a
// replay of the untimed commands would have none), the one after replays;
// the report then times the passes from the frames that timed them.
TEST_F(PassTimings, AChangeRecordsTheFrameAnew) {
    World world(ctx(), perColourCloth(), 1);
    world.setPassTimings(false);
    runWorldFrames(ctx(), world, 3);
    EXPECT_EQ(world.framesReplayed(), 2u);
    world.setPassTimings(true);
    runWorldFrames(ctx(), world, 1);
    EXPECT_EQ(world.framesReplayed(), 2u);
    EXPECT_TRUE(world.timer().lastCollectedFrame().passesTimed);
    runWorldFrames(ctx(), world, 1);
    EXPECT_EQ(world.framesReplayed(), 3u);
    EXPECT_TRUE(world.timer().lastCollectedFrame().passesTimed);
    const TimingReport report = world.timer().report();
    EXPECT_EQ(report.frames, 5u);
    for (const PassTiming& pass : report.passes) {
        EXPECT_TRUE(pass.timed) << pass.name;
        EXPECT_GT(pass.maxMs, 0.0) << pass.name;
    }
    world.setPassTimings(false);
    runWorldFrames(ctx(), world, 1);
    EXPECT_FALSE(world.timer().lastCollectedFrame().passesTimed);
}

}  // namespace
}  // namespace vksim::test
