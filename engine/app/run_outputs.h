#pragma once
// What a run writes while it runs, as the command line asked: the exported
// meshes (--export), the pass trace (--trace), the body poses (--poses) and, for headless runs watched
// on a terminal, the progress bar. Headless and windowed loops pass
// observers() to their frames.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "run/frame_observer.h"
#include "run/run_options.h"

namespace vksim {

class VulkanContext;
class World;
class FrameExporter;
class TraceWriter;
class PoseWriter;
class ProgressBar;

class RunOutputs {
public:
    // Opens what the options ask for (throws std::runtime_error naming a
    // file or directory that cannot be written). progressFrames: the run's
    // length when it may show a progress bar (headless), else nullopt.
    RunOutputs(const VulkanContext& ctx, World& sim, const RunOptions& options, uint32_t frameSlots,
               std::optional<uint64_t> progressFrames);
    ~RunOutputs();
    RunOutputs(const RunOutputs&) = delete;
    RunOutputs& operator=(const RunOutputs&) = delete;

    std::span<FrameObserver* const> observers() const { return observers_; }

    // After the last frame: erases the progress bar and completes the trace
    // and the poses (throws std::runtime_error when one could not be written).
    void finish();

private:
    std::unique_ptr<FrameExporter> exporter_;
    std::unique_ptr<TraceWriter> trace_;
    std::unique_ptr<PoseWriter> poses_;
    std::unique_ptr<ProgressBar> progress_;
    std::vector<FrameObserver*> observers_;
};

}  // namespace vksim
