// vk/compute_pipelines.h: a context builds each compute pipeline once. A
// second World of the same scene on the same context builds none, steps to
// the same bits as the first, and a kernel of other specialization
// constants is a pipeline of its own.
#include <array>

#include "diagnostics/state_hash.h"
#include "gpu_harness.h"
#include "scene/scene_loader.h"
#include "vk/compute_kernel.h"
#include "world/world.h"
#include "world_frames.h"

namespace vksim::test {
namespace {

class ComputePipelinesTest : public GpuTest {};

TEST_F(ComputePipelinesTest, ASecondWorldBuildsNoPipeline) {
    const Scene scene = loadScene(sourcePath("scenes/cloth_sphere.json"));
    uint64_t first = 0;
    {
        World world(ctx(), scene, 1);
        runWorldFrames(ctx(), world, 3);
        first = world.stateHash();
    }
    const size_t built = ctx().computePipelines().size();
    ASSERT_GT(built, 0u);
    World again(ctx(), scene, 1);
    EXPECT_EQ(ctx().computePipelines().size(), built) << "the second World built pipelines";
    runWorldFrames(ctx(), again, 3);
    EXPECT_EQ(again.stateHash(), first);
}

TEST_F(ComputePipelinesTest, OtherSpecializationConstantsAreAnotherPipeline) {
    const size_t before = ctx().computePipelines().size();
    const std::array<SpecializationConstant, 1> a{{{0, 1}}}, b{{{0, 2}}};
    ComputeKernel k1(ctx(), "bench/empty.comp", 0, a);
    ComputeKernel k2(ctx(), "bench/empty.comp", 0, a);
    const size_t one = ctx().computePipelines().size();
    EXPECT_LE(one, before + 1);
    ComputeKernel k3(ctx(), "bench/empty.comp", 0, b);
    EXPECT_EQ(ctx().computePipelines().size(), one + 1);
}

}  // namespace
}  // namespace vksim::test
