#include "vk/slow_frame.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "vk/context.h"
#include "vk/gpu_wait.h"
#include "vk/vk_check.h"

namespace vksim {

std::optional<SlowFramePlan> parseSlowFrame(const std::string& text) {
    const size_t colon = text.find(':');
    if (colon == std::string::npos) return std::nullopt;
    SlowFramePlan plan;
    const char* end = text.data() + text.size();
    const auto frame = std::from_chars(text.data(), text.data() + colon, plan.frame);
    const auto seconds = std::from_chars(text.data() + colon + 1, end, plan.seconds);
    if (frame.ec != std::errc() || frame.ptr != text.data() + colon || seconds.ec != std::errc() ||
        seconds.ptr != end || !std::isfinite(plan.seconds) || plan.seconds < 0.0 || plan.seconds > 86400.0)
        return std::nullopt;
    return plan;
}

SlowFrameHook::SlowFrameHook(const VulkanContext& ctx) : ctx_(ctx) {
    const char* value = std::getenv("VKSIM_SLOW_FRAME");
    if (!value || !*value) return;
    plan_ = parseSlowFrame(value);
    if (!plan_)
        throw DeviceError(fmt::format("VKSIM_SLOW_FRAME '{:.80}' is not N:SECONDS (frame N holds the GPU for SECONDS "
                                      "in [0, 86400])",
                                      value));
    VkEventCreateInfo info{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
    VK_CHECK(vkCreateEvent(ctx_.device(), &info, nullptr, &event_));
    ctx_.setName(event_, VK_OBJECT_TYPE_EVENT, "VKSIM_SLOW_FRAME event");
}

SlowFrameHook::~SlowFrameHook() {
    {
        std::lock_guard lock(mutex_);
        ending_ = true;
    }
    wake_.notify_all();
    if (setter_.joinable()) setter_.join();
    // A frame still waiting on the event was abandoned by the teardown
    // before this (context.h): the event then leaks with the rest.
    if (event_ && !gpuAbandoned()) vkDestroyEvent(ctx_.device(), event_, nullptr);
}

void SlowFrameHook::record(VkCommandBuffer cmd, uint64_t frame) {
    if (!plan_ || frame != plan_->frame) return;
    // Set by the host (vkSetEvent): the source stage is the host's.
    vkCmdWaitEvents(cmd, 1, &event_, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, nullptr, 0,
                    nullptr, 0, nullptr);
}

void SlowFrameHook::submitted(uint64_t frame) {
    if (!plan_ || frame != plan_->frame || setter_.joinable()) return;
    setter_ = std::thread([this, seconds = plan_->seconds] { setLater(seconds); });
}

void SlowFrameHook::setLater(double seconds) {
    std::unique_lock lock(mutex_);
    const bool ending = wake_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return ending_; });
    if (!ending) vkSetEvent(ctx_.device(), event_);
}

}  // namespace vksim
