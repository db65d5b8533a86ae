#include "app/trace_output.h"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "vk/context.h"
#include "vk/gpu_timer.h"

namespace vksim {
namespace {

// Microseconds with nanosecond digits, from whole nanoseconds: a pass's end
// (ts + dur) then never passes its frame's end through rounding, which would
// break the nesting.
std::string microseconds(int64_t ns) { return fmt::format("{}.{:03d}", ns / 1000, ns % 1000); }

std::string quoted(const std::string& text) { return nlohmann::json(text).dump(); }

}  // namespace

TraceWriter::TraceWriter(const std::string& path, const GpuTimer& timer, const DeviceInfo& device)
    : timer_(timer), file_(std::make_unique<OutputFile>(path)) {
    const nlohmann::json otherData = {{"device", device.name},
                                      {"driver", device.driver},
                                      {"vulkan", device.apiVersion},
                                      {"clock", "GPU timestamps; 0 = the first frame's start"}};
    file_->write(
        fmt::format("{{\"displayTimeUnit\":\"ms\",\"otherData\":{},\"traceEvents\":[\n", otherData.dump()));
    // Metadata events name the process and the track in the viewer.
    file_->write(fmt::format("{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{},\"args\":{{\"name\":{}}}}},\n",
                             kTraceGpuPid, quoted("GPU: " + device.name)));
    file_->write(fmt::format(
        "{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{},\"tid\":{},\"args\":{{\"name\":\"passes\"}}}}",
        kTraceGpuPid, kTraceGpuTid));
}

TraceWriter::~TraceWriter() { close(); }

void TraceWriter::frameCollected(uint32_t /*slot*/, uint64_t frame) {
    if (!file_) return;  // finished
    const FrameTimeline& timeline = timer_.lastCollectedFrame();
    auto event = [&](const std::string& name, const char* category, double beginNs, double endNs,
                     const std::string& args) {
        const auto begin = static_cast<int64_t>(std::llround(beginNs));
        const auto end = static_cast<int64_t>(std::llround(endNs));
        file_->write(fmt::format(
            ",\n{{\"name\":{},\"cat\":\"{}\",\"ph\":\"X\",\"ts\":{},\"dur\":{},\"pid\":{},\"tid\":{},"
            "\"args\":{}}}",
            quoted(name), category, microseconds(begin), microseconds(end - begin), kTraceGpuPid, kTraceGpuTid,
            args));
    };
    event(fmt::format("frame {}", frame), "frame", timeline.beginNs, timeline.endNs,
          fmt::format("{{\"frame\":{}}}", frame));
    if (!timeline.passesTimed) return;  // World::setPassTimings(false): the frame alone (--trace turns them on)
    for (const PassRunInterval& run : timeline.runs)
        event(timer_.passName(run.passId), "pass", run.beginNs, run.endNs,
              fmt::format("{{\"frame\":{},\"run\":{}}}", frame, run.run));
}

void TraceWriter::finish() {
    if (!file_) return;
    const std::unique_ptr<OutputFile> file = std::move(file_);
    file->write("\n]}\n");
    file->commit();
}

void TraceWriter::close() noexcept {
    try {
        finish();
    } catch (const std::exception&) {
        // Unwinding from another error, which is the one to report; the
        // temporary file is gone and the previous trace, if any, kept.
    }
}

}  // namespace vksim
