#include "bench/dispatch_calibration.h"

#include <span>
#include <vector>

#include "bench/bench_stats.h"
#include "vk/barriers.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"
#include "vk/context.h"
#include "vk/gpu_timer.h"

namespace vksim {

DispatchCalibration calibrateDispatchCost(const VulkanContext& ctx, uint32_t dispatchesPerFrame, uint32_t frames) {
    ComputeKernel kernel(ctx, "bench/empty.comp", 0);
    GpuTimer timer(ctx, 1, dispatchesPerFrame);
    const uint32_t pass = timer.registerPass("empty dispatch");

    std::vector<double> passMs, perDispatchMs;
    for (uint32_t frame = 0; frame <= frames; ++frame) {  // frame 0 warms up caches and the driver
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            timer.beginFrame(cmd, 0);
            for (uint32_t i = 0; i < dispatchesPerFrame; ++i) {
                timer.beginPass(cmd, pass);
                kernel.dispatch(cmd, {}, 1, nullptr, 0);
                timer.endPass(cmd);
                computeToComputeBarrier(cmd);
            }
            timer.endFrame(cmd);
        });
        timer.collect(0);
        if (frame == 0) continue;
        const FrameTimeline& timeline = timer.lastCollectedFrame();
        for (const PassRunInterval& run : timeline.runs) passMs.push_back((run.endNs - run.beginNs) * 1e-6);
        perDispatchMs.push_back((timeline.endNs - timeline.beginNs) * 1e-6 / dispatchesPerFrame);
    }
    DispatchCalibration result;
    result.dispatchesPerFrame = dispatchesPerFrame;
    result.frames = frames;
    result.medianPassMs = median(passMs);
    result.perDispatchMs = median(perDispatchMs);
    return result;
}

}  // namespace vksim
