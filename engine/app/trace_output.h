#pragma once
// --trace FILE.json: every pass run of every frame as a Chrome trace (Trace
// Event Format, the JSON that Perfetto and chrome://tracing open). Each frame
// is an "X" (complete) event named "frame N" and each pass run an "X" event
// named after the pass, with ts/dur in microseconds on the GPU's timestamp
// clock (0 = the first frame's start) and args {frame, run}; they share one
// track, so passes nest under their frame. Events are streamed to the file as
// frames are collected, so a long run does not hold them in memory; through
// an OutputFile (io/write_file.h), so the file appears, complete, when the run
// ends, and a trace that could not be written leaves the previous one alone.
#include <memory>
#include <string>

#include "io/write_file.h"
#include "run/frame_observer.h"

namespace vksim {

class GpuTimer;
struct DeviceInfo;

// Trace Event Format process and thread ids of the GPU timeline.
inline constexpr int kTraceGpuPid = 1;
inline constexpr int kTraceGpuTid = 1;

class TraceWriter : public FrameObserver {
public:
    // Opens `path` (throws WriteError naming it when it cannot be written)
    // and writes the header: device and track names.
    TraceWriter(const std::string& path, const GpuTimer& timer, const DeviceInfo& device);
    // Completes the JSON if finish() was not called (a run that stopped
    // early on an error still leaves a file that opens); a failure then is
    // not reported.
    ~TraceWriter() override;
    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;

    // Appends the frame's events from timer.lastCollectedFrame().
    void frameCollected(uint32_t slot, uint64_t frame) override;

    // Completes the file and renames it into place; throws WriteError when a
    // write failed.
    void finish();

private:
    void close() noexcept;

    const GpuTimer& timer_;
    std::unique_ptr<OutputFile> file_;  // null once finished
};

}  // namespace vksim
