#pragma once
// Names and times every GPU pass with timestamp queries. Each frame slot (one
// per frame in flight) has its own query pool, whose results the frame's
// own commands copy into the slot's host-visible buffer at its end; a slot's
// results are read from there when the caller has already waited on that
// slot's fence for its next use, so the read never stalls the frame nor waits
// for any other. (vkGetQueryPoolResults would be one call less, but lavapipe
// answers it by waiting for the device to go idle, whatever its flags: for
// every frame in flight, and with no time limit for one that never ends.) A pass that runs several times in a frame
// (every colour runs substeps x iterations times) is summed per frame; the
// report gives median and max over frames, in the order passes were
// registered (the step order). The raw intervals of the frame last collected
// are kept too (lastCollectedFrame), for traces and benchmarks.
//
// A timestamp pair around every pass is not free: on lavapipe the pairs
// of a per-colour frame, one per pass, are a large share of it
// (docs/architecture.md, the GPU timer). So the pass timestamps can be turned off
// (beginFrame's passTimestamps) where nobody reads them: a frame then writes only its
// first and last timestamps, and its passes are still counted and named,
// without times.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include <volk.h>

#include "vk/buffer.h"

namespace vksim {

class VulkanContext;

struct PassTiming {
    std::string name;
    double medianMs = 0;
    double maxMs = 0;
    double meanMs = 0;
    uint32_t runsPerFrame = 0;  // how many times the pass was recorded in one frame
    // Whether any frame reported timed the pass (else the times are 0: it
    // ran only in frames without pass timestamps).
    bool timed = false;
};

struct TimingReport {
    std::string device;
    uint32_t frames = 0;          // frames measured
    std::vector<PassTiming> passes;  // step order
    PassTiming step;              // the whole frame of simulation passes, timestamp to timestamp
};

// One recorded run of a pass, on the device's timestamp clock in
// nanoseconds since the first timestamp of the first frame this timer
// collected; NaN in a frame without pass timestamps.
struct PassRunInterval {
    uint32_t passId = 0;
    uint32_t run = 0;  // 0 for the pass's first run in its frame, 1 for the second, ...
    double beginNs = 0;
    double endNs = 0;
};

// Every pass run of one frame, in recording order, and the frame's first and
// last timestamps.
struct FrameTimeline {
    double beginNs = 0;
    double endNs = 0;
    std::vector<PassRunInterval> runs;
    bool passesTimed = true;  // false: the runs' times are NaN (recorded without pass timestamps)
};

class GpuTimer {
public:
    GpuTimer(const VulkanContext& ctx, uint32_t frameSlots, uint32_t maxPassRunsPerFrame);
    ~GpuTimer();
    GpuTimer(const GpuTimer&) = delete;
    GpuTimer& operator=(const GpuTimer&) = delete;

    // Registers a pass name once; the id is used while recording.
    uint32_t registerPass(std::string_view name);
    const std::string& passName(uint32_t passId) const { return passNames_.at(passId); }
    uint32_t passCount() const { return static_cast<uint32_t>(passNames_.size()); }

    // `passTimestamps`: a timestamp pair around every pass of the frame, or
    // only the frame's first and last timestamps.
    void beginFrame(VkCommandBuffer cmd, uint32_t slot, bool passTimestamps = true);
    void beginPass(VkCommandBuffer cmd, uint32_t passId);
    void endPass(VkCommandBuffer cmd);
    void endFrame(VkCommandBuffer cmd);
    // The commands last recorded for `slot` (beginFrame to endFrame) run
    // again (world/frame_commands.h): the next collect(slot) reads their
    // timestamps, with the same passes.
    void replayFrame(uint32_t slot);

    // Reads the results of the frame last recorded in `slot` (its fence must
    // have signalled) and adds them as one sample. No-op for a slot never used.
    void collect(uint32_t slot);

    // The intervals of the frame read by the latest collect() that read one.
    // Frames collected in recording order get increasing times even when the
    // device's timestamp counter wraps between them.
    const FrameTimeline& lastCollectedFrame() const { return lastFrame_; }

    // The samples kept: the last kKeptFrames collected. A sample is about
    // 500 bytes (a time and a count per pass); keeping every frame grew a
    // viewer left open by 100 MB an hour (found by scripts/soak.sh).
    static constexpr size_t kKeptFrames = 10000;

    // Median/max over the last `lastFrames` collected frames (0 = all kept).
    TimingReport report(uint32_t lastFrames = 0) const;
    void clearSamples();

private:
    static constexpr uint32_t kNoQuery = UINT32_MAX;  // a run recorded without timestamps
    struct Run {
        uint32_t passId;
        uint32_t firstQuery;  // or kNoQuery
    };
    struct Slot {
        VkQueryPool pool = VK_NULL_HANDLE;
        GpuBuffer results;  // the frame's timestamps, copied there by its commands (uint64_t each)
        std::vector<Run> runs;
        uint32_t queriesUsed = 0;
        bool pending = false;
        bool passesTimed = true;  // as recorded
    };
    struct FrameSample {
        std::vector<double> passMs;  // by pass id
        std::vector<uint32_t> passRuns;
        double stepMs = 0;
        bool passesTimed = true;
    };

    uint32_t nextQuery(Slot& slot);
    // A timestamp into the recording slot's query `query`, taken at once.
    void writeTimestamp(VkCommandBuffer cmd, uint32_t query);

    const VulkanContext& ctx_;
    double nsPerTick_ = 1.0;
    bool resolveEachTimestamp_ = false;  // a CPU driver that draws to a window: see writeTimestamp
    uint64_t validMask_ = ~0ull;
    uint32_t queriesPerSlot_ = 0;
    std::vector<Slot> slots_;
    Slot* recording_ = nullptr;
    uint32_t openPass_ = kNoQuery;
    std::vector<std::string> passNames_;
    std::deque<FrameSample> samples_;  // the last kKeptFrames, oldest first
    FrameTimeline lastFrame_;
    uint64_t originTick_ = 0;          // the first collected frame's first timestamp
    uint64_t lastFrameBeginTick_ = 0;  // unwrapped, for the next frame's wrap-around
    bool anyFrameCollected_ = false;
};

}  // namespace vksim
