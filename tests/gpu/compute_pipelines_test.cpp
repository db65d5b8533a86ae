// vk/compute_pipelines.h: a context builds each compute pipeline once. A
// second World of the same scene on the same context builds none, steps to
// the same bits as the first, and a kernel of other specialization
// constants is a pipeline of its own. A kernel builds its pipeline when it
// is first recorded, not when it is made.
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
    const auto record = [&](const ComputeKernel& kernel) {
        ctx().submitAndWait([&](VkCommandBuffer cmd) { kernel.dispatch(cmd, {}, 1, nullptr, 0); });
    };
    record(k1);
    record(k2);
    const size_t one = ctx().computePipelines().size();
    EXPECT_LE(one, before + 1);
    ComputeKernel k3(ctx(), "bench/empty.comp", 0, b);
    record(k3);
    EXPECT_EQ(ctx().computePipelines().size(), one + 1);
}

TEST_F(ComputePipelinesTest, AKernelBuildsItsPipelineWhenFirstRecorded) {
    const std::array<SpecializationConstant, 1> unused{{{0, 7}}};
    const size_t before = ctx().computePipelines().size();
    ComputeKernel kernel(ctx(), "bench/empty.comp", 0, unused);
    EXPECT_FALSE(kernel.built());
    EXPECT_EQ(ctx().computePipelines().size(), before) << "a kernel made and never recorded built its pipeline";
    ctx().submitAndWait([&](VkCommandBuffer cmd) { kernel.dispatch(cmd, {}, 1, nullptr, 0); });
    EXPECT_TRUE(kernel.built());
    EXPECT_EQ(ctx().computePipelines().size(), before + 1);
}

}  // namespace
}  // namespace vksim::test
