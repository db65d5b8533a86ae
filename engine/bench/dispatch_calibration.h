#pragma once
// The fixed cost of a dispatch on this device: frames of empty dispatches
// (shaders/bench/empty.comp, one workgroup each), recorded exactly as the
// solver records a pass: timestamps around it, a compute-to-compute barrier
// after it. A pass of a real step costs this much before it does any work.
// The same frames again without the timestamps around each dispatch (only
// around the frame) give what the timestamps themselves cost.
#include <cstdint>

namespace vksim {

class VulkanContext;

struct DispatchCalibration {
    uint32_t dispatchesPerFrame = 0;
    uint32_t frames = 0;          // measured (one more ran as warm-up)
    double medianPassMs = 0;      // median timed interval of one empty pass (what a timing-table row shows)
    double perDispatchMs = 0;     // median over frames of frame time / dispatches: pass + barrier + timestamps
    double untimedPerDispatchMs = 0;  // the same without a timestamp pair around each dispatch
    // What one timestamp pair adds to a dispatch (perDispatchMs - untimedPerDispatchMs; noise can make it < 0).
    double timestampPairMs() const { return perDispatchMs - untimedPerDispatchMs; }
};

DispatchCalibration calibrateDispatchCost(const VulkanContext& ctx, uint32_t dispatchesPerFrame = 200,
                                          uint32_t frames = 5);

}  // namespace vksim
