#pragma once
// Test hook for the GPU time limit (gpu_wait.h), which a healthy driver
// never reaches on demand: VKSIM_SLOW_FRAME=N:SECONDS makes frame N of the
// headless frame loop (0 the first) hold the GPU for SECONDS after it is
// submitted. Its commands start by waiting on an event that a host thread
// sets SECONDS later, so the frame is a slow one, or with SECONDS past the
// limit and the drain after it, a GPU that stopped. Unset, nothing is
// created and every call returns at once.
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <volk.h>

namespace vksim {

class VulkanContext;

struct SlowFramePlan {
    uint64_t frame = 0;
    double seconds = 0.0;
};

// Parses "N:SECONDS" (SECONDS a number in [0, 86400]); nullopt when the
// text is not one.
std::optional<SlowFramePlan> parseSlowFrame(const std::string& text);

class SlowFrameHook {
public:
    // Reads VKSIM_SLOW_FRAME; throws DeviceError naming it when its value
    // is not N:SECONDS.
    explicit SlowFrameHook(const VulkanContext& ctx);
    // Wakes the thread (its event stays unset when the frame was abandoned)
    // and destroys the event unless the GPU may still wait on it.
    ~SlowFrameHook();
    SlowFrameHook(const SlowFrameHook&) = delete;
    SlowFrameHook& operator=(const SlowFrameHook&) = delete;

    // Frame `frame` is being recorded into `cmd`: the slow one starts with
    // the wait.
    void record(VkCommandBuffer cmd, uint64_t frame);
    // Frame `frame` was submitted: the slow one's clock starts.
    void submitted(uint64_t frame);

private:
    void setLater(double seconds);

    const VulkanContext& ctx_;
    std::optional<SlowFramePlan> plan_;
    VkEvent event_ = VK_NULL_HANDLE;
    std::thread setter_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool ending_ = false;
};

}  // namespace vksim
