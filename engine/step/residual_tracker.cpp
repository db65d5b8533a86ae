#include "step/residual_tracker.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "shaders/shared/interaction_types.h"
#include "shaders/shared/sim_types.h"
#include "step/step_recorder.h"
#include "vk/barriers.h"

namespace vksim {

uint32_t ResidualTracker::groupsFor(uint32_t count) { return (count + gpu::kWorkgroupSize - 1) / gpu::kWorkgroupSize; }

ResidualTracker::ResidualTracker(const VulkanContext& ctx, uint32_t longestFirstPass, uint32_t frameSlots)
    : slots_(frameSlots) {
    const uint32_t elements = std::max(longestFirstPass, 1u);
    partials_ = makeStorageBuffer<float>(ctx, std::vector<float>(groupsFor(elements), 0.0f), "residual partial sums");
    sum_ = std::make_unique<ComputeKernel>(ctx, "reduce/sum_partials.comp", sizeof(gpu::SumPartialsPush));
    for (uint32_t i = 0; i < frameSlots; ++i) {
        Slot& slot = slots_[i];
        slot.results = GpuBuffer(ctx, kSeriesCount * kMaxValues * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 MemoryKind::HostVisible, fmt::format("residuals, frame slot {}", i));
        std::memset(slot.results.mapped(), 0, slot.results.size());
    }
}

ResidualTracker::~ResidualTracker() = default;

void ResidualTracker::declarePasses(StepPlan& plan) {
    passId_ = plan.declare("residual: sum", StageKind::Diagnostic, "world");
}

void ResidualTracker::beginFrame(uint32_t slot) {
    current_ = slot;
    Slot& s = slots_.at(slot);
    for (uint32_t& count : s.counts) count = 0;
    s.pending = false;
}

void ResidualTracker::replayFrame(uint32_t slot) {
    current_ = slot;
    Slot& s = slots_.at(slot);
    s.pending = std::any_of(std::begin(s.counts), std::end(s.counts), [](uint32_t n) { return n != 0; });
}

void ResidualTracker::endFrame(VkCommandBuffer cmd) {
    Slot& s = slots_.at(current_);
    if (std::all_of(std::begin(s.counts), std::end(s.counts), [](uint32_t n) { return n == 0; })) return;
    s.pending = true;
    computeToHostBarrier(cmd);
}

void ResidualTracker::recordSum(StepRecorder& rec, Series series, uint32_t index, uint32_t partialCount,
                                float scale, bool takeSqrt) {
    if (passId_ == UINT32_MAX) throw std::logic_error("ResidualTracker::declarePasses must be called first");
    if (index >= kMaxValues)
        throw std::invalid_argument(fmt::format("residual tracking records at most {} iterations per frame",
                                                kMaxValues));
    rec.timed(passId_, [&](VkCommandBuffer cmd) {
        Slot& s = slots_.at(current_);
        const auto k = static_cast<uint32_t>(series);
        s.counts[k] = std::max(s.counts[k], index + 1);
        const gpu::SumPartialsPush push{partialCount, k * kMaxValues + index, scale, takeSqrt ? 1u : 0u};
        sum_->dispatch(cmd, {&partials_, &s.results}, 1, push);
    });
}

ResidualTracker::SeriesDestination ResidualTracker::writeSeries(const StepRecorder& rec, Series series,
                                                                uint32_t count) {
    if (count > kMaxValues)
        throw std::invalid_argument(
            fmt::format("residual tracking records at most {} values per series and frame", kMaxValues));
    const auto k = static_cast<uint32_t>(series);
    Slot& s = slots_.at(current_);
    if (!rec.counting()) s.counts[k] = std::max(s.counts[k], count);
    return {&s.results, k * kMaxValues};
}

bool ResidualTracker::collect(uint32_t slot) {
    Slot& s = slots_.at(slot);
    if (!s.pending) return false;
    s.pending = false;
    const auto* values = static_cast<const float*>(s.results.mapped());
    for (uint32_t k = 0; k < kSeriesCount; ++k)
        last_[k].assign(values + k * kMaxValues, values + k * kMaxValues + s.counts[k]);
    return true;
}

}  // namespace vksim
