#include "vk/gpu_wait.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

#include "vk/context.h"
#include "vk/vk_check.h"

namespace vksim {
namespace {

double readTimeout() {
    const char* value = std::getenv("VKSIM_GPU_TIMEOUT");
    if (!value || !*value) return kDefaultGpuTimeoutSeconds;
    const std::string_view text(value);
    double seconds = -1.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(seconds) || seconds < 0.0 ||
        seconds > 86400.0)
        throw DeviceError(fmt::format("VKSIM_GPU_TIMEOUT '{:.80}' is not a number of seconds in [0, 86400] "
                                      "(0 waits for the GPU forever)",
                                      text));
    return seconds;
}

std::atomic<LongWaitReporter> reporter{nullptr};
std::atomic<bool> abandoned{false};

// vkWaitForFences for at most `limit` seconds (0: forever), in spans of
// kWaitReportSeconds with a line to the reporter after each span the fences
// were still pending.
VkResult waitReporting(const VulkanContext& ctx, std::span<const VkFence> fences, double limit,
                       const std::string& doing) {
    const auto start = std::chrono::steady_clock::now();
    for (double reported = 0.0;;) {
        const double next = reported + kWaitReportSeconds;
        const bool last = limit != 0.0 && limit <= next;
        const double until = last ? limit : next;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const VkResult result = vkWaitForFences(ctx.device(), static_cast<uint32_t>(fences.size()), fences.data(),
                                                VK_TRUE, static_cast<uint64_t>(std::max(until - elapsed, 0.0) * 1e9));
        if (result != VK_TIMEOUT || last) return result;
        reported = next;
        if (const LongWaitReporter report = reporter.load())
            report(fmt::format("still {} after {:g} s ({})", doing, reported,
                               limit == 0.0 ? "no limit" : fmt::format("the limit is {:g} s", limit)));
    }
}

}  // namespace

void markGpuAbandoned() noexcept { abandoned.store(true); }
bool gpuAbandoned() noexcept { return abandoned.load(); }

void reportLongWaits(LongWaitReporter report) { reporter.store(report); }

double gpuTimeoutSeconds() {
    static const double seconds = readTimeout();
    return seconds;
}

void waitForFences(const VulkanContext& ctx, std::span<const VkFence> fences, const std::string& doing) {
    VkResult result = injectedFault(FaultSite::Wait);
    if (result == VK_SUCCESS)
        result = waitReporting(ctx, fences, gpuTimeoutSeconds(), doing);
    if (result == VK_TIMEOUT) ctx.markUnresponsive();
    if (result != VK_SUCCESS) throwDeviceFault(result, doing);
}

bool drainQueue(const VulkanContext& ctx) noexcept {
    VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    if (vkCreateFence(ctx.device(), &info, nullptr, &fence) != VK_SUCCESS) return false;
    const double seconds = gpuTimeoutSeconds() == 0.0 ? 0.0 : std::max(gpuTimeoutSeconds(), kDrainSeconds);
    bool finished = false;
    try {
        const std::string doing = "waiting for the GPU to finish before freeing its memory";
        finished = vkQueueSubmit(ctx.queue(), 0, nullptr, fence) == VK_SUCCESS &&
                   waitReporting(ctx, std::span(&fence, 1), seconds, doing) == VK_SUCCESS;
    } catch (...) {  // out of memory for a report's line: the wait counts as failed
    }
    if (finished) vkDestroyFence(ctx.device(), fence, nullptr);  // else it may still be pending
    return finished;
}

void waitForQueue(const VulkanContext& ctx, const std::string& doing) {
    VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    VK_CHECK_WHILE(vkCreateFence(ctx.device(), &info, nullptr, &fence), doing);
    struct Destroy {
        const VulkanContext& ctx;
        VkFence fence;
        ~Destroy() {
            ctx.waitIdleForTeardown();  // after a timeout: the fence may still be pending
            if (!ctx.unresponsive()) vkDestroyFence(ctx.device(), fence, nullptr);
        }
    } destroy{ctx, fence};
    VK_CHECK_WHILE(vkQueueSubmit(ctx.queue(), 0, nullptr, fence), doing);
    waitForFences(ctx, std::span(&fence, 1), doing);
}

}  // namespace vksim
