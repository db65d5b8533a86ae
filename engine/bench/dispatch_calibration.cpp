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

    // Frames alternate between timing every dispatch and timing only the
    // frame, so that drift of the machine's load hits both alike.
    std::vector<double> passMs, perDispatchMs, untimedPerDispatchMs;
    for (uint32_t frame = 0; frame <= 2 * frames + 1; ++frame) {  // frames 0 and 1 warm up caches and the driver
        const bool timed = frame % 2 == 0;
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            timer.beginFrame(cmd, 0);
            for (uint32_t i = 0; i < dispatchesPerFrame; ++i) {
                if (timed) timer.beginPass(cmd, pass);
                kernel.dispatch(cmd, {}, 1, nullptr, 0);
                if (timed) timer.endPass(cmd);
                computeToComputeBarrier(cmd);
            }
            timer.endFrame(cmd);
        });
        timer.collect(0);
        if (frame < 2) continue;
        const FrameTimeline& timeline = timer.lastCollectedFrame();
        for (const PassRunInterval& run : timeline.runs) passMs.push_back((run.endNs - run.beginNs) * 1e-6);
        const double perDispatch = (timeline.endNs - timeline.beginNs) * 1e-6 / dispatchesPerFrame;
        (timed ? perDispatchMs : untimedPerDispatchMs).push_back(perDispatch);
    }
    DispatchCalibration result;
    result.dispatchesPerFrame = dispatchesPerFrame;
    result.frames = frames;
    result.medianPassMs = median(passMs);
    result.perDispatchMs = median(perDispatchMs);
    result.untimedPerDispatchMs = median(untimedPerDispatchMs);
    return result;
}

}  // namespace vksim
