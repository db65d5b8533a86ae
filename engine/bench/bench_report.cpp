#include "bench/bench_report.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "io/csv_field.h"
#include "io/file_names.h"
#include "io/write_file.h"

namespace vksim {
namespace {

std::string deviceLine(const BenchDevice& device) {
    return fmt::format("{} ({}, Vulkan {}, driver {}){}", device.name, device.type, device.vulkan, device.driver,
                       device.type == "CPU" ? " -- a CPU device: times are of the host's cores, not of a GPU" : "");
}

std::string calibrationLine(const DispatchCalibration& c) {
    return fmt::format("fixed cost per dispatch: {:.4f} ms (empty dispatch with its barrier and timestamps; "
                       "the timed interval alone {:.4f} ms; {:.4f} ms without the timestamps, so a timestamp "
                       "pair costs {:.4f} ms), from {} frames of {} each way",
                       c.perDispatchMs, c.medianPassMs, c.untimedPerDispatchMs, c.timestampPairMs(), c.frames,
                       c.dispatchesPerFrame);
}

std::string scalingLine(const ScalingResult& s) {
    if (!s.valid) return fmt::format("{}: fewer than two sizes, no slope", s.scene);
    return fmt::format("{}: slope {:.2f} of log(step time) on log(constraints) (1 = linear; below 1: fixed "
                       "per-dispatch costs still dominate; above 1: superlinear growth)",
                       s.scene, s.slope);
}

// Numbers with SI prefixes keep the columns narrow over six orders of magnitude.
std::string si(double value) {
    constexpr const char* kPrefixes[] = {"", "k", "M", "G", "T"};
    int p = 0;
    while (value >= 1000.0 && p < 4) value /= 1000.0, ++p;
    return fmt::format("{:.3g}{}", value, kPrefixes[p]);
}

std::string formatSize(const SizeResult& r, double perDispatchMs) {
    const double overhead = r.dispatchesPerStep * perDispatchMs;
    std::string out = fmt::format(
        "{} {}: {} particles, {} constraints, {} dispatches per step; step median {:.3f} ms, p95 {:.3f} ms; "
        "{} constraints/s; dispatch fixed cost ~{:.0f}% of the step\n"
        "  wall clock {:.3f} ms per step ({:.3g} simulated s per wall s); host {:.4f} ms per step replaying the "
        "commands, {:.3f} ms recording them\n"
        "  without pass timestamps: step median {:.3f} ms, wall clock {:.3f} ms per step ({:.3g} simulated s per "
        "wall s)\n",
        r.scene, r.size, r.particles, r.constraints, r.dispatchesPerStep, r.stepMedianMs, r.stepP95Ms,
        si(r.constraintsPerSecond), r.stepMedianMs > 0 ? std::min(100.0, 100.0 * overhead / r.stepMedianMs) : 0.0,
        r.wallMsPerStep, r.simulatedPerWallSecond, r.hostMsPerStep, r.recordingMs, r.untimedStepMedianMs,
        r.untimedWallMsPerStep, r.untimedSimulatedPerWallSecond);
    if (r.copies > 0)
        out += fmt::format("  batch of {} copies: step {:.4f} ms per copy; {:.3g} simulated copy-seconds per wall "
                           "second\n",
                           r.copies, r.stepMsPerCopy, r.copySecondsPerWallSecond);
    if (!std::isnan(r.pbdResidual))
        out += fmt::format("  PBD stretch residual after the last iteration (mean |C|, a tracked frame): {:.4e} m\n",
                           r.pbdResidual);
    out += fmt::format("  {:<30} {:>5} {:>10} {:>10} {:>10} {:>9} {:>9} {:>8}  {}\n", "pass", "runs", "median ms",
                       "p95 ms", "elements", "elem/s", "bytes", "GB/s", "element");
    for (const PassFamilyResult& p : r.passes) {
        if (p.hasByteModel)
            out += fmt::format("  {:<30} {:>5} {:>10.4f} {:>10.4f} {:>10} {:>9} {:>9} {:>8.3f}  {}\n", p.family,
                               p.runsPerStep, p.medianMs, p.p95Ms, si(static_cast<double>(p.elementsPerStep)),
                               si(p.elementsPerSecond), si(static_cast<double>(p.bytesPerStep)),
                               p.gigabytesPerSecond, p.element);
        else if (p.elementsPerStep > 0)  // counted, with no byte model
            out += fmt::format("  {:<30} {:>5} {:>10.4f} {:>10.4f} {:>10} {:>9} {:>9} {:>8}  {} (no byte model)\n",
                               p.family, p.runsPerStep, p.medianMs, p.p95Ms,
                               si(static_cast<double>(p.elementsPerStep)), si(p.elementsPerSecond), "-", "-",
                               p.element);
        else
            out += fmt::format("  {:<30} {:>5} {:>10.4f} {:>10.4f} {:>10} {:>9} {:>9} {:>8}  (no byte model)\n",
                               p.family, p.runsPerStep, p.medianMs, p.p95Ms, "-", "-", "-", "-");
    }
    out += fmt::format("  {:<30} {:>5} {:>10.4f} {:>10.4f} {:>10} {:>9} {:>9} {:>8.3f}\n", "step total",
                       r.dispatchesPerStep, r.stepMedianMs, r.stepP95Ms, "", "",
                       si(static_cast<double>(r.bytesPerStep)),
                       r.stepMedianMs > 0 ? static_cast<double>(r.bytesPerStep) / (r.stepMedianMs * 1e-3) * 1e-9 : 0.0);
    return out;
}

nlohmann::json toJson(const BenchReport& report) {
    nlohmann::json results = nlohmann::json::array();
    for (const SizeResult& r : report.results) {
        nlohmann::json passes = nlohmann::json::array();
        for (const PassFamilyResult& p : r.passes)
            passes.push_back({{"pass", p.family},
                              {"element", p.element},
                              {"runs_per_step", p.runsPerStep},
                              {"elements_per_step", p.elementsPerStep},
                              {"median_ms", p.medianMs},
                              {"p95_ms", p.p95Ms},
                              {"elements_per_s", p.elementsPerSecond},
                              {"bytes_per_step", p.bytesPerStep},
                              {"gb_per_s", p.gigabytesPerSecond},
                              {"byte_model", p.hasByteModel}});
        results.push_back({{"scene", r.scene},
                           {"size", r.size},
                           {"particles", r.particles},
                           {"constraints", r.constraints},
                           {"dispatches_per_step", r.dispatchesPerStep},
                           {"step", {{"median_ms", r.stepMedianMs}, {"p95_ms", r.stepP95Ms}}},
                           {"constraint_solves_per_step", r.constraintSolvesPerStep},
                           {"constraints_per_s", r.constraintsPerSecond},
                           {"bytes_per_step", r.bytesPerStep},
                           {"wall_ms_per_step", r.wallMsPerStep},
                           {"simulated_s_per_wall_s", r.simulatedPerWallSecond},
                           {"batch",
                            {{"copies", r.copies},
                             {"step_ms_per_copy", r.stepMsPerCopy},
                             {"copy_s_per_wall_s", r.copySecondsPerWallSecond}}},
                           {"without_pass_timestamps",
                            {{"step_median_ms", r.untimedStepMedianMs},
                             {"wall_ms_per_step", r.untimedWallMsPerStep},
                             {"simulated_s_per_wall_s", r.untimedSimulatedPerWallSecond}}},
                           {"recording_ms", r.recordingMs},
                           {"host_ms_per_step", r.hostMsPerStep},
                           {"pbd_residual_m", std::isnan(r.pbdResidual) ? nlohmann::json() : nlohmann::json(r.pbdResidual)},
                           {"passes", passes}});
    }
    nlohmann::json scaling = nlohmann::json::array();
    for (const ScalingResult& s : report.scaling)
        scaling.push_back({{"scene", s.scene}, {"slope", s.valid ? nlohmann::json(s.slope) : nlohmann::json()}});
    nlohmann::json skipped = nlohmann::json::array();
    for (const SkippedSize& s : report.skipped)
        skipped.push_back({{"scene", s.scene}, {"size", s.size}, {"reason", s.reason}});
    const DispatchCalibration& c = report.calibration;
    return {{"device",
             {{"name", report.device.name},
              {"type", report.device.type},
              {"driver", report.device.driver},
              {"vulkan", report.device.vulkan}}},
            {"frames", report.frames},
            {"warmup", report.warmup},
            {"dispatch_calibration",
             {{"dispatches_per_frame", c.dispatchesPerFrame},
              {"frames", c.frames},
              {"per_dispatch_ms", c.perDispatchMs},
              {"untimed_per_dispatch_ms", c.untimedPerDispatchMs},
              {"timestamp_pair_ms", c.timestampPairMs()},
              {"median_pass_ms", c.medianPassMs}}},
            {"results", results},
            {"scaling", scaling},
            {"skipped", skipped}};
}

std::string formatCsv(const BenchReport& report) {
    std::string csv;
    csv += "# vksim bench\n";
    csv += "# device: " + deviceLine(report.device) + "\n";
    csv += fmt::format("# frames: {} measured per size after {} warm-up\n", report.frames, report.warmup);
    csv += "# " + calibrationLine(report.calibration) + "\n";
    for (const ScalingResult& s : report.scaling) csv += "# scaling " + scalingLine(s) + "\n";
    for (const SkippedSize& s : report.skipped) csv += fmt::format("# skipped {} {}: {}\n", s.scene, s.size, s.reason);
    csv += "scene,size,particles,constraints,dispatches_per_step,wall_ms_per_step,simulated_s_per_wall_s,"
           "recording_ms,host_ms_per_step,untimed_step_median_ms,untimed_wall_ms_per_step,"
           "untimed_simulated_s_per_wall_s,pass,element,runs_per_step,elements_per_step,median_ms,p95_ms,"
           "elements_per_s,bytes_per_step,gb_per_s\n";
    for (const SizeResult& r : report.results) {
        const std::string lead = fmt::format(
            "{},{},{},{},{},{:.6f},{:.6g},{:.6f},{:.6f},{:.6f},{:.6f},{:.6g}", csvField(r.scene), r.size, r.particles,
            r.constraints, r.dispatchesPerStep, r.wallMsPerStep, r.simulatedPerWallSecond, r.recordingMs,
            r.hostMsPerStep, r.untimedStepMedianMs, r.untimedWallMsPerStep, r.untimedSimulatedPerWallSecond);
        for (const PassFamilyResult& p : r.passes)
            csv += fmt::format("{},{},{},{},{},{:.6f},{:.6f},{:.6g},{},{:.6g}\n", lead, csvField(p.family),
                               csvField(p.element), p.runsPerStep, p.elementsPerStep, p.medianMs, p.p95Ms,
                               p.elementsPerSecond, p.bytesPerStep, p.gigabytesPerSecond);
        const double stepGbps =
            r.stepMedianMs > 0 ? static_cast<double>(r.bytesPerStep) / (r.stepMedianMs * 1e-3) * 1e-9 : 0.0;
        csv += fmt::format("{},\"step total\",\"constraint\",{},{},{:.6f},{:.6f},{:.6g},{},{:.6g}\n", lead,
                           r.dispatchesPerStep, r.constraintSolvesPerStep, r.stepMedianMs, r.stepP95Ms,
                           r.constraintsPerSecond,
                           r.bytesPerStep, stepGbps);
    }
    return csv;
}

}  // namespace

std::string formatBenchTable(const BenchReport& report) {
    std::string out = "device: " + deviceLine(report.device) + "\n";
    out += fmt::format("{} frames measured per size after {} warm-up; a step is one frame; times are GPU "
                       "timestamps, per step, each pass family's runs summed\n",
                       report.frames, report.warmup);
    out += calibrationLine(report.calibration) + "\n";
    for (const SizeResult& r : report.results) out += "\n" + formatSize(r, report.calibration.perDispatchMs);
    if (!report.skipped.empty()) out += "\n";
    for (const SkippedSize& s : report.skipped) out += fmt::format("skipped {} {}: {}\n", s.scene, s.size, s.reason);

    out += "\nscaling: step time against problem size\n";
    out += fmt::format("  {:<20} {:>6} {:>12} {:>11} {:>14} {:>10} {:>12} {:>15} {:>15}\n", "scene", "size",
                       "constraints", "step ms", "ns/constraint", "dispatches", "sim s/wall s", "untimed step ms",
                       "untimed s/wall s");
    for (const SizeResult& r : report.results)
        out += fmt::format("  {:<20} {:>6} {:>12} {:>11.3f} {:>14.2f} {:>10} {:>12.3g} {:>15.3f} {:>15.3g}\n",
                           r.scene, r.size, r.constraints, r.stepMedianMs,
                           r.constraints > 0 ? r.stepMedianMs * 1e6 / r.constraints : 0.0, r.dispatchesPerStep,
                           r.simulatedPerWallSecond, r.untimedStepMedianMs, r.untimedSimulatedPerWallSecond);
    for (const ScalingResult& s : report.scaling) out += "  " + scalingLine(s) + "\n";
    return out;
}

void writeBenchFile(const std::string& path, const BenchReport& report) {
    writeWholeFile(path, fileExtension(path) == ".csv" ? formatCsv(report) : toJson(report).dump(2) + "\n");
}

}  // namespace vksim
