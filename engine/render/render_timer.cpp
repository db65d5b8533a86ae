#include "render/render_timer.h"

#include <algorithm>
#include <array>
#include <cstring>

#include <fmt/format.h>

#include "vk/barriers.h"
#include "vk/context.h"
#include "vk/gpu_wait.h"
#include "vk/vk_check.h"

namespace vksim {

RenderTimer::RenderTimer(const VulkanContext& ctx, uint32_t frameSlots)
    : ctx_(ctx), nsPerTick_(ctx.properties().limits.timestampPeriod), pools_(frameSlots), pending_(frameSlots) {
    for (uint32_t i = 0; i < frameSlots; ++i) {
        VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        info.queryType = VK_QUERY_TYPE_TIMESTAMP;
        info.queryCount = kMarks;
        VK_CHECK(vkCreateQueryPool(ctx.device(), &info, nullptr, &pools_[i]));
        ctx.setName(pools_[i], VK_OBJECT_TYPE_QUERY_POOL, fmt::format("render timer {}", i));
        results_.emplace_back(ctx, VkDeviceSize(kMarks) * sizeof(uint64_t), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                              MemoryKind::HostVisible, fmt::format("render timer {} read back", i));
    }
}

RenderTimer::~RenderTimer() {
    if (gpuAbandoned()) return;  // the GPU may still write the queries: leaked (gpu_wait.h)
    for (VkQueryPool pool : pools_) vkDestroyQueryPool(ctx_.device(), pool, nullptr);
}

void RenderTimer::begin(VkCommandBuffer cmd, uint32_t slot) {
    vkCmdResetQueryPool(cmd, pools_.at(slot), 0, kMarks);
    pending_[slot] = true;
}

void RenderTimer::mark(VkCommandBuffer cmd, uint32_t slot, Mark mark) {
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pools_.at(slot), mark);
    if (mark != kMarks - 1) return;
    vkCmdCopyQueryPoolResults(cmd, pools_[slot], 0, kMarks, results_.at(slot).handle(), 0, sizeof(uint64_t),
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    transferToHostBarrier(cmd);
}

void RenderTimer::collect(uint32_t slot) {
    if (!pending_.at(slot)) return;
    pending_[slot] = false;
    std::array<uint64_t, kMarks> ticks{};
    std::memcpy(ticks.data(), results_.at(slot).mapped(), sizeof(ticks));
    sceneMs_ = float(double(ticks[kSceneEnd] - ticks[kSceneBegin]) * nsPerTick_ * 1e-6);
    overlayMs_ = float(double(ticks[kOverlayEnd] - ticks[kSceneEnd]) * nsPerTick_ * 1e-6);
    sceneSamples_.push_back(sceneMs_);
    overlaySamples_.push_back(overlayMs_);
}

namespace {

float median(std::vector<float> values) {
    if (values.empty()) return 0.0f;
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    return values[values.size() / 2];
}

}  // namespace

float RenderTimer::medianSceneMs() const { return median(sceneSamples_); }
float RenderTimer::medianOverlayMs() const { return median(overlaySamples_); }

}  // namespace vksim
