// A dispatch over more workgroups than maxComputeWorkGroupCount[0] (65,535 on
// lavapipe) is cut by ComputeKernel into slices with vkCmdDispatchBase. The
// finite check runs over two buffers of 65,535 x 64 + 1,000 elements each,
// 131,102 workgroups in all, so three slices; NaNs planted in the second and
// third slices must both be counted and the lower index reported, which only
// happens if every slice ran with the right base.
#include <cstdint>
#include <limits>
#include <vector>

#include <glm/vec4.hpp>

#include "gpu_harness.h"
#include "shaders/shared/finite_check_types.h"
#include "shaders/shared/sim_types.h"
#include "vk/barriers.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim::test {
namespace {

class ComputeKernelSplit : public GpuTest {};

TEST_F(ComputeKernelSplit, DispatchPastTheWorkgroupLimitCoversEveryElement) {
    const uint32_t maxGroups = ctx().properties().limits.maxComputeWorkGroupCount[0];
    // Devices with 2^31 - 1 (NVIDIA) would need buffers far past their storage range.
    if (maxGroups > (1u << 20))
        GTEST_SKIP() << "the device allows " << maxGroups << " workgroups in one dispatch: nothing to split here";
    const uint32_t perBuffer = maxGroups * gpu::kWorkgroupSize + 1000;
    const uint32_t groups = (2 * perBuffer + gpu::kWorkgroupSize - 1) / gpu::kWorkgroupSize;
    ASSERT_GT(groups, 2 * maxGroups) << "three slices";

    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<glm::vec4> first(perBuffer, glm::vec4(1.0f));
    std::vector<glm::vec4> second(perBuffer, glm::vec4(2.0f));
    const uint32_t inSecondSlice = perBuffer - 5;  // thread 65,535 x 64 + 995: slice 2
    const uint32_t inThirdSlice = perBuffer - 1;   // of the second buffer: thread 2 x perBuffer - 1, slice 3
    first[inSecondSlice].y = nan;
    second[inThirdSlice].z = nan;
    GpuBuffer firstBuffer = makeStorageBuffer<glm::vec4>(ctx(), first, "split test first");
    GpuBuffer secondBuffer = makeStorageBuffer<glm::vec4>(ctx(), second, "split test second");
    const gpu::FiniteCheckResult clean{gpu::kNoFiniteCheck, UINT32_MAX, 0, 0, {}};
    GpuBuffer result = makeStorageBuffer<gpu::FiniteCheckResult>(ctx(), std::span(&clean, 1), "split test result");

    ComputeKernel kernel(ctx(), "debug/check_finite.comp", sizeof(gpu::FiniteCheckPush));
    const gpu::FiniteCheckPush push{perBuffer, 2, 7, 0};
    const GpuBuffer* buffers[] = {&firstBuffer, &secondBuffer, &result};
    ctx().submitAndWait([&](VkCommandBuffer cmd) {
        kernel.dispatch(cmd, buffers, 2 * perBuffer, &push, sizeof(push));
        computeToTransferBarrier(cmd);
    });

    const gpu::FiniteCheckResult found = result.downloadArray<gpu::FiniteCheckResult>().at(0);
    std::printf("%u workgroups (device limit %u): %u non-finite found, lowest index %u\n", groups, maxGroups,
                found.badCount, found.firstBadIndex);
    EXPECT_EQ(found.firstBadCheck, 7u);
    EXPECT_EQ(found.badCount, 2u) << "both planted NaNs, one in the second slice and one in the third";
    EXPECT_EQ(found.firstBadIndex, inSecondSlice);
}

}  // namespace
}  // namespace vksim::test
