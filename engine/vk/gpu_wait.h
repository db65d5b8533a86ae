#pragma once
// Every host wait for the GPU has a time limit, so a driver that stops
// (lavapipe's worker threads under a tight `ulimit -v`, a hung GPU) ends the
// run with one line instead of hanging it: "the GPU did not finish within
// 120 s (VK_TIMEOUT) while waiting for frame 12". VKSIM_GPU_TIMEOUT=SECONDS
// sets the limit (0 waits forever); the default is far above any frame vksim
// accepts, even the largest scenes on lavapipe.
#include <cstdint>
#include <span>
#include <string>

#include <volk.h>

namespace vksim {

class VulkanContext;

constexpr double kDefaultGpuTimeoutSeconds = 120.0;

// The limit in seconds (0: none), read from VKSIM_GPU_TIMEOUT once per
// process; throws DeviceError naming the variable for a value that is not a
// number of seconds in [0, 86400].
double gpuTimeoutSeconds();

// Waits for all `fences` (VKSIM_FAULT's wait site included). On a timeout
// the context is marked unresponsive (teardown then skips its own waits) and
// DeviceFault(VK_TIMEOUT) is thrown; other failures throw as VK_CHECK_FAULT.
void waitForFences(const VulkanContext& ctx, std::span<const VkFence> fences, const std::string& doing);

// Waits until the queue has finished everything submitted so far: an empty
// submission's fence, which signals after all earlier work on the queue.
void waitForQueue(const VulkanContext& ctx, const std::string& doing);

// After a timeout, for teardown: waits for the queue once more, for the limit
// but at least kDrainSeconds (work already submitted is at most the frames in
// flight, which a GPU that was only slow finishes; a short limit set to
// fail fast must not make teardown free buffers the GPU still reads).
// True when the queue finished; never throws.
constexpr double kDrainSeconds = 10.0;
bool drainQueue(const VulkanContext& ctx) noexcept;

}  // namespace vksim
