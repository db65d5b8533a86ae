#pragma once
// Every host wait for the GPU has a time limit, so a driver that stops
// (lavapipe's worker threads under a tight `ulimit -v`, a hung GPU) ends the
// run with one line instead of hanging it: "the GPU did not finish within
// 120 s (VK_TIMEOUT) while waiting for frame 12". VKSIM_GPU_TIMEOUT=SECONDS
// sets the limit (0 waits forever); a scene whose frame surely takes longer
// is refused when it loads (world/frame_time_limit.h).
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

// A wait that lasts says so every kWaitReportSeconds, through the reporter
// set here (none by default: the library prints nothing; vksim's main()
// writes to stderr): "still waiting for frame 12 after 10 s (the limit is
// 120 s)". Normal frames and set-up waits are far shorter, so a
// short run's output does not change.
constexpr double kWaitReportSeconds = 10.0;
using LongWaitReporter = void (*)(const std::string& line);
void reportLongWaits(LongWaitReporter reporter);

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

// A GPU that did not finish even then is abandoned (VulkanContext::
// waitIdleForTeardown): it may still be running work that reads or writes
// any object of its device (lavapipe's queue thread runs the frame's command
// buffers, pipelines and memory), and freeing one crashed that thread. From
// then on every destructor of a device object leaks it instead of freeing
// it, the device is not destroyed, and vksim's main() ends with the
// timeout's line by std::_Exit, without exit()'s teardown (the static
// destructors of the driver's libraries) under the driver's running thread.
// For the whole process: it is ending.
void markGpuAbandoned() noexcept;
bool gpuAbandoned() noexcept;

}  // namespace vksim
