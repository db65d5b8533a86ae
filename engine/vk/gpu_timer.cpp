#include "vk/gpu_timer.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "vk/barriers.h"
#include "vk/context.h"
#include "vk/gpu_wait.h"
#include "vk/vk_check.h"

namespace vksim {

GpuTimer::GpuTimer(const VulkanContext& ctx, uint32_t frameSlots, uint32_t maxPassRunsPerFrame)
    : ctx_(ctx), queriesPerSlot_(2 * maxPassRunsPerFrame + 2), slots_(frameSlots) {
    nsPerTick_ = ctx.properties().limits.timestampPeriod;
    resolveEachTimestamp_ =
        ctx.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU && ctx.surface() != VK_NULL_HANDLE;
    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx.physicalDevice(), &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(ctx.physicalDevice(), &familyCount, families.data());
    const uint32_t bits = families[ctx.queueFamily()].timestampValidBits;
    validMask_ = bits >= 64 ? ~0ull : ((1ull << bits) - 1);

    for (uint32_t i = 0; i < frameSlots; ++i) {
        VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        info.queryType = VK_QUERY_TYPE_TIMESTAMP;
        info.queryCount = queriesPerSlot_;
        VK_CHECK(vkCreateQueryPool(ctx.device(), &info, nullptr, &slots_[i].pool));
        ctx.setName(slots_[i].pool, VK_OBJECT_TYPE_QUERY_POOL, fmt::format("pass timestamps, frame slot {}", i));
        slots_[i].results =
            GpuBuffer(ctx, VkDeviceSize(queriesPerSlot_) * sizeof(uint64_t), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                      MemoryKind::HostVisible, fmt::format("pass timestamps read back, frame slot {}", i));
    }
}

GpuTimer::~GpuTimer() {
    if (gpuAbandoned()) return;  // the GPU may still write the queries: leaked (gpu_wait.h)
    for (Slot& slot : slots_) vkDestroyQueryPool(ctx_.device(), slot.pool, nullptr);
}

uint32_t GpuTimer::registerPass(std::string_view name) {
    auto it = std::find(passNames_.begin(), passNames_.end(), name);
    if (it != passNames_.end()) return static_cast<uint32_t>(it - passNames_.begin());
    passNames_.emplace_back(name);
    return static_cast<uint32_t>(passNames_.size() - 1);
}

uint32_t GpuTimer::nextQuery(Slot& slot) {
    if (slot.queriesUsed >= queriesPerSlot_)
        throw VulkanError(fmt::format("GPU timer: more than {} timestamped passes in one frame; "
                                      "raise maxPassRunsPerFrame",
                                      (queriesPerSlot_ - 2) / 2));
    return slot.queriesUsed++;
}

// lavapipe (Mesa 22.3) flushes before it writes a timestamp, then leaves
// the write queued in the rasterizer's scene while a framebuffer is bound,
// which after a window's first frame it always is: the write took the time
// of the next flush, after the pass it should have begun, and every pass
// measured close to nothing (the step, first to last, was right). A barrier
// flushes there, so an empty one right after each write takes its time at
// once. Only a context that presents to a window draws between frames;
// headless, with no framebuffer bound, the write is immediate without the
// barrier, which would only add its cost to every write
// (docs/architecture.md, the GPU timer). On GPUs nothing is added.
void GpuTimer::writeTimestamp(VkCommandBuffer cmd, uint32_t query) {
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, recording_->pool, query);
    if (resolveEachTimestamp_) {
        const VkDependencyInfo none{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        vkCmdPipelineBarrier2(cmd, &none);
    }
}

void GpuTimer::beginFrame(VkCommandBuffer cmd, uint32_t slot, bool passTimestamps) {
    recording_ = &slots_.at(slot);
    recording_->runs.clear();
    recording_->queriesUsed = 0;
    recording_->passesTimed = passTimestamps;
    vkCmdResetQueryPool(cmd, recording_->pool, 0, queriesPerSlot_);
    writeTimestamp(cmd, nextQuery(*recording_));
}

void GpuTimer::beginPass(VkCommandBuffer cmd, uint32_t passId) {
    if (!recording_->passesTimed) {
        recording_->runs.push_back({passId, kNoQuery});
        return;
    }
    const uint32_t query = nextQuery(*recording_);
    nextQuery(*recording_);  // the end timestamp
    recording_->runs.push_back({passId, query});
    openPass_ = query;
    writeTimestamp(cmd, query);
}

void GpuTimer::endPass(VkCommandBuffer cmd) {
    if (openPass_ == kNoQuery) return;  // a frame without pass timestamps
    writeTimestamp(cmd, openPass_ + 1);
    openPass_ = kNoQuery;
}

void GpuTimer::endFrame(VkCommandBuffer cmd) {
    writeTimestamp(cmd, nextQuery(*recording_));
    vkCmdCopyQueryPoolResults(cmd, recording_->pool, 0, recording_->queriesUsed, recording_->results.handle(), 0,
                              sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    transferToHostBarrier(cmd);
    recording_->pending = true;
    recording_ = nullptr;
}

void GpuTimer::replayFrame(uint32_t slotIndex) {
    Slot& slot = slots_.at(slotIndex);
    if (slot.queriesUsed == 0) throw std::logic_error("GpuTimer::replayFrame: nothing was recorded in the slot");
    slot.pending = true;
}

void GpuTimer::collect(uint32_t slotIndex) {
    Slot& slot = slots_.at(slotIndex);
    if (!slot.pending) return;
    slot.pending = false;
    // The fence of this slot has signalled: its commands copied the results.
    std::vector<uint64_t> ticks(slot.queriesUsed);
    std::memcpy(ticks.data(), slot.results.mapped(), ticks.size() * sizeof(uint64_t));
    auto ms = [&](uint32_t begin, uint32_t end) {
        const uint64_t delta = (ticks[end] - ticks[begin]) & validMask_;
        return static_cast<double>(delta) * nsPerTick_ * 1e-6;
    };
    FrameSample sample;
    sample.passMs.assign(passNames_.size(), 0.0);
    sample.passRuns.assign(passNames_.size(), 0);
    sample.passesTimed = slot.passesTimed;
    for (const Run& run : slot.runs) {
        if (run.firstQuery != kNoQuery) sample.passMs[run.passId] += ms(run.firstQuery, run.firstQuery + 1);
        sample.passRuns[run.passId]++;
    }
    sample.stepMs = ms(0, slot.queriesUsed - 1);

    // Raw intervals: every timestamp as an offset from the frame's first one
    // (masked, like ms()), and that one as an offset from the previous
    // frame's, so a counter that wraps between frames still counts up. The
    // origin is the first frame collected, which keeps the doubles small.
    const uint64_t frameBegin = anyFrameCollected_
                                    ? lastFrameBeginTick_ + ((ticks[0] - lastFrameBeginTick_) & validMask_)
                                    : ticks[0] & validMask_;
    if (!anyFrameCollected_) originTick_ = frameBegin;
    lastFrameBeginTick_ = frameBegin;
    anyFrameCollected_ = true;
    auto ns = [&](uint32_t query) {
        if (query == kNoQuery) return std::numeric_limits<double>::quiet_NaN();
        const uint64_t tick = frameBegin - originTick_ + ((ticks[query] - ticks[0]) & validMask_);
        return static_cast<double>(tick) * nsPerTick_;
    };
    lastFrame_.beginNs = ns(0);
    lastFrame_.endNs = ns(slot.queriesUsed - 1);
    lastFrame_.runs.clear();
    lastFrame_.passesTimed = slot.passesTimed;
    std::vector<uint32_t> runsSoFar(passNames_.size(), 0);
    for (const Run& run : slot.runs) {
        const uint32_t end = run.firstQuery == kNoQuery ? kNoQuery : run.firstQuery + 1;
        lastFrame_.runs.push_back({run.passId, runsSoFar[run.passId]++, ns(run.firstQuery), ns(end)});
    }
    samples_.push_back(std::move(sample));
    if (samples_.size() > kKeptFrames) samples_.pop_front();
}

void GpuTimer::clearSamples() { samples_.clear(); }

namespace {

PassTiming summarize(std::string name, std::vector<double> values, uint32_t runs) {
    PassTiming t;
    t.name = std::move(name);
    t.runsPerFrame = runs;
    if (values.empty()) return t;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    t.medianMs = n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
    t.maxMs = values.back();
    double sum = 0;
    for (double v : values) sum += v;
    t.meanMs = sum / static_cast<double>(n);
    return t;
}

}  // namespace

TimingReport GpuTimer::report(uint32_t lastFrames) const {
    TimingReport report;
    report.device = ctx_.deviceInfo().name;
    const size_t first = lastFrames == 0 || lastFrames >= samples_.size() ? 0 : samples_.size() - lastFrames;
    report.frames = static_cast<uint32_t>(samples_.size() - first);
    // A pass's times over the frames that timed it; its runs per frame from
    // the last frame that ran it, timed or not.
    for (uint32_t id = 0; id < passNames_.size(); ++id) {
        std::vector<double> values;
        uint32_t runs = 0;
        for (size_t f = first; f < samples_.size(); ++f) {
            if (id >= samples_[f].passMs.size() || samples_[f].passRuns[id] == 0) continue;
            if (samples_[f].passesTimed) values.push_back(samples_[f].passMs[id]);
            runs = samples_[f].passRuns[id];
        }
        if (runs == 0) continue;
        const bool timed = !values.empty();
        report.passes.push_back(summarize(passNames_[id], std::move(values), runs));
        report.passes.back().timed = timed;
    }
    std::vector<double> steps;
    for (size_t f = first; f < samples_.size(); ++f) steps.push_back(samples_[f].stepMs);
    const bool anyFrame = !steps.empty();
    report.step = summarize("step total", std::move(steps), 1);
    report.step.timed = anyFrame;
    return report;
}

}  // namespace vksim
