#pragma once
// The fixed cost of a dispatch on this device: frames of empty dispatches
// (shaders/bench/empty.comp, one workgroup each), recorded exactly as the
// solver records a pass: timestamps around it, a compute-to-compute barrier
// after it. A pass of a real step costs this much before it does any work.
#include <cstdint>

namespace vksim {

class VulkanContext;

struct DispatchCalibration {
    uint32_t dispatchesPerFrame = 0;
    uint32_t frames = 0;          // measured (one more ran as warm-up)
    double medianPassMs = 0;      // median timed interval of one empty pass (what a timing-table row shows)
    double perDispatchMs = 0;     // median over frames of frame time / dispatches: pass + barrier + timestamps
};

DispatchCalibration calibrateDispatchCost(const VulkanContext& ctx, uint32_t dispatchesPerFrame = 200,
                                          uint32_t frames = 5);

}  // namespace vksim
