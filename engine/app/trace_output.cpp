#include "app/trace_output.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>

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
    : path_(path), timer_(timer) {
    file_ = std::fopen(path.c_str(), "w");
    if (!file_) throw std::runtime_error(fmt::format("{}: cannot open for writing: {}", path, std::strerror(errno)));
    const nlohmann::json otherData = {{"device", device.name},
                                      {"driver", device.driver},
                                      {"vulkan", device.apiVersion},
                                      {"clock", "GPU timestamps; 0 = the first frame's start"}};
    fmt::print(file_, "{{\"displayTimeUnit\":\"ms\",\"otherData\":{},\"traceEvents\":[\n", otherData.dump());
    // Metadata events name the process and the track in the viewer.
    fmt::print(file_, "{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{},\"args\":{{\"name\":{}}}}},\n",
               kTraceGpuPid, quoted("GPU: " + device.name));
    fmt::print(file_,
               "{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{},\"tid\":{},\"args\":{{\"name\":\"passes\"}}}}",
               kTraceGpuPid, kTraceGpuTid);
}

TraceWriter::~TraceWriter() { close(); }

void TraceWriter::frameCollected(uint32_t /*slot*/, uint64_t frame) {
    const FrameTimeline& timeline = timer_.lastCollectedFrame();
    auto event = [&](const std::string& name, const char* category, double beginNs, double endNs,
                     const std::string& args) {
        const auto begin = static_cast<int64_t>(std::llround(beginNs));
        const auto end = static_cast<int64_t>(std::llround(endNs));
        fmt::print(file_,
                   ",\n{{\"name\":{},\"cat\":\"{}\",\"ph\":\"X\",\"ts\":{},\"dur\":{},\"pid\":{},\"tid\":{},"
                   "\"args\":{}}}",
                   quoted(name), category, microseconds(begin), microseconds(end - begin), kTraceGpuPid,
                   kTraceGpuTid, args);
    };
    event(fmt::format("frame {}", frame), "frame", timeline.beginNs, timeline.endNs,
          fmt::format("{{\"frame\":{}}}", frame));
    for (const PassRunInterval& run : timeline.runs)
        event(timer_.passName(run.passId), "pass", run.beginNs, run.endNs,
              fmt::format("{{\"frame\":{},\"run\":{}}}", frame, run.run));
}

void TraceWriter::finish() {
    if (!file_) return;
    bool ok = std::fputs("\n]}\n", file_) >= 0;
    ok = !std::ferror(file_) && ok;
    ok = std::fclose(file_) == 0 && ok;
    file_ = nullptr;
    if (!ok) throw std::runtime_error(fmt::format("{}: write failed", path_));
}

void TraceWriter::close() {
    if (!file_) return;
    std::fputs("\n]}\n", file_);
    std::fclose(file_);
    file_ = nullptr;
}

}  // namespace vksim
