#pragma once
// A scene whose frame cannot finish within the GPU time limit (VKSIM_GPU_TIMEOUT,
// vk/gpu_wait.h) is refused when it loads, naming the keys to lower, instead of
// running until the limit ends it. The frame's work is counted by recording
// a frame without a command buffer (step/frame_work.h), as the pass cap
// counts its passes, and each kind of work is priced at the least it was
// measured to cost on lavapipe, divided by a margin (frame_time_limit.cpp),
// so that the estimate stays below what the frame takes: a scene is refused
// only when even that is past the limit. The prices are lavapipe's, so only
// a CPU device's frames are estimated; on a GPU the limit itself (with the
// wait's progress lines) is what stops a frame that does not finish.
#include <optional>
#include <string>

#include "step/frame_work.h"

namespace vksim {

class VulkanContext;

struct FrameTimeEstimate {
    double seconds = 0;  // at least this long on the device
    // The largest part: "/solver/pd" and what to lower there.
    std::string path;
    std::string what;  // "256000000 row updates of PD's Jacobi iterations in one workgroup"
    std::string lower;  // "/solver/pd/iterations, /solver/pd/jacobiIterations or /solver/substeps"
};

// nullopt where the device's costs are not known (not a CPU device).
std::optional<FrameTimeEstimate> estimateFrameTime(const VulkanContext& ctx, const FrameWork& work);

// Throws std::invalid_argument, "SCENE: /solver/pd: a frame needs at least
// 26 s of GPU time on this device (256000000 row updates ...), more than the
// limit of 10 s (VKSIM_GPU_TIMEOUT); lower ...", when the estimate is past
// the limit (none when the limit is 0).
void refuseFramesPastTimeLimit(const VulkanContext& ctx, const std::string& scenePath, const FrameWork& work);

}  // namespace vksim
