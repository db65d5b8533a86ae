#include "app/timing_output.h"

#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "io/file_names.h"
#include "io/write_file.h"

namespace vksim {
namespace {

nlohmann::json passJson(const PassTiming& pass) {
    return {{"name", pass.name},
            {"median_ms", pass.medianMs},
            {"max_ms", pass.maxMs},
            {"mean_ms", pass.meanMs},
            {"runs_per_frame", pass.runsPerFrame}};
}

}  // namespace

std::string formatTimingTable(const TimingReport& report) {
    std::string out = fmt::format("GPU time per frame on {} over {} frames (pass times summed over their runs):\n",
                                  report.device, report.frames);
    out += fmt::format("  {:<24} {:>6} {:>11} {:>11} {:>7}\n", "pass", "runs", "median ms", "max ms", "% step");
    const double step = report.step.medianMs > 0 ? report.step.medianMs : 1.0;
    bool untimed = false;
    for (const PassTiming& pass : report.passes) {
        if (!pass.timed) {  // ran only in frames without pass timestamps (World::setPassTimings)
            out += fmt::format("  {:<24} {:>6} {:>11} {:>11} {:>7}\n", pass.name, pass.runsPerFrame, "-", "-", "-");
            untimed = true;
            continue;
        }
        out += fmt::format("  {:<24} {:>6} {:>11.4f} {:>11.4f} {:>6.1f}%\n", pass.name, pass.runsPerFrame,
                           pass.medianMs, pass.maxMs, 100.0 * pass.medianMs / step);
    }
    out += fmt::format("  {:<24} {:>6} {:>11.4f} {:>11.4f} {:>6.1f}%\n", report.step.name, 1, report.step.medianMs,
                       report.step.maxMs, 100.0);
    if (untimed) out += "  (-: not timed; the viewer times passes while its overlay shows them)\n";
    return out;
}

void writeTimingsFile(const std::string& path, const TimingReport& report) {
    std::string text;
    if (fileExtension(path) == ".csv") {
        text = "pass,runs_per_frame,median_ms,max_ms,mean_ms\n";
        for (const PassTiming& pass : report.passes)
            text += fmt::format("\"{}\",{},{:.6f},{:.6f},{:.6f}\n", pass.name, pass.runsPerFrame, pass.medianMs,
                                pass.maxMs, pass.meanMs);
        text += fmt::format("\"{}\",1,{:.6f},{:.6f},{:.6f}\n", report.step.name, report.step.medianMs,
                            report.step.maxMs, report.step.meanMs);
    } else {
        nlohmann::json passes = nlohmann::json::array();
        for (const PassTiming& pass : report.passes) passes.push_back(passJson(pass));
        nlohmann::json doc = {{"device", report.device},
                              {"frames", report.frames},
                              {"passes", passes},
                              {"step", passJson(report.step)}};
        text = doc.dump(2) + "\n";
    }
    writeWholeFile(path, text);
}

}  // namespace vksim
