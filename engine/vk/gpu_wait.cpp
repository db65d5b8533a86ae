#include "vk/gpu_wait.h"

#include <algorithm>
#include <charconv>
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

uint64_t timeoutNanoseconds() {
    const double seconds = gpuTimeoutSeconds();
    return seconds == 0.0 ? UINT64_MAX : static_cast<uint64_t>(seconds * 1e9);
}

}  // namespace

double gpuTimeoutSeconds() {
    static const double seconds = readTimeout();
    return seconds;
}

void waitForFences(const VulkanContext& ctx, std::span<const VkFence> fences, const std::string& doing) {
    VkResult result = injectedFault(FaultSite::Wait);
    if (result == VK_SUCCESS)
        result = vkWaitForFences(ctx.device(), static_cast<uint32_t>(fences.size()), fences.data(), VK_TRUE,
                                 timeoutNanoseconds());
    if (result == VK_TIMEOUT) ctx.markUnresponsive();
    if (result != VK_SUCCESS) throwDeviceFault(result, doing);
}

bool drainQueue(const VulkanContext& ctx) noexcept {
    VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    if (vkCreateFence(ctx.device(), &info, nullptr, &fence) != VK_SUCCESS) return false;
    const double seconds = gpuTimeoutSeconds() == 0.0 ? 0.0 : std::max(gpuTimeoutSeconds(), kDrainSeconds);
    const bool finished =
        vkQueueSubmit(ctx.queue(), 0, nullptr, fence) == VK_SUCCESS &&
        vkWaitForFences(ctx.device(), 1, &fence, VK_TRUE, seconds == 0.0 ? UINT64_MAX : uint64_t(seconds * 1e9)) ==
            VK_SUCCESS;
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
