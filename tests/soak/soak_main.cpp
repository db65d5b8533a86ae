// vksim_soak: a long headless run through the production frame loop
// (run/frame_loop.h), sampled every K frames by SoakSampler, then judged:
//   finite   every sampled position and velocity;
//   energy   after the warm-up (the cloth falling and draping), the total
//            energy stays within 1% of the energy the fall released: damping
//            only removes energy, so a rise means the solver injects it, and
//            a slow creep means something drifts;
//   host     resident memory grows by at most 1 MiB after the warm-up (a
//            leak of even 16 bytes a frame shows as 1.5 MiB over 100,000);
//   device   vksim's device memory, bytes and allocations, never changes.
// One line per sample (or a CSV with --csv), a summary, exit status 0 when all
// four hold, 1 when one does not. scripts/soak.sh runs it for 100,000 frames.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "io/write_file.h"
#include "run/frame_loop.h"
#include "scene/scene_loader.h"
#include "soak_sampler.h"
#include "vk/context.h"
#include "world/device_limits.h"
#include "world/world.h"

namespace vksim {
namespace {

constexpr double kEnergyBand = 0.01;              // of the energy the fall released
constexpr uint64_t kResidentGrowthBytes = 1 << 20;  // after the warm-up

std::string csv(const std::vector<SoakSample>& samples) {
    std::string text = "frame,wall_s,finite,kinetic_J,potential_J,total_J,rss_bytes,device_bytes,device_allocations\n";
    for (const SoakSample& s : samples)
        text += fmt::format("{},{:.3f},{},{:.9g},{:.9g},{:.9g},{},{},{}\n", s.frame, s.wallSeconds, s.finite ? 1 : 0,
                            s.kineticEnergy, s.potentialEnergy, s.totalEnergy(), s.residentBytes, s.deviceBytes,
                            s.deviceAllocations);
    return text;
}

double mebibytes(double bytes) { return bytes / double(1 << 20); }

// Prints the verdict of each check; true when all hold.
bool judge(const std::vector<SoakSample>& samples, double warmUp) {
    if (samples.size() < 3) {
        fmt::print("too few samples ({}) to judge: run more frames or sample more often\n", samples.size());
        return false;
    }
    const size_t settled = std::clamp<size_t>(size_t(warmUp * double(samples.size())), 1, samples.size() - 1);
    bool ok = true;
    const auto verdict = [&](bool pass, const std::string& line) {
        fmt::print("{} {}\n", pass ? "ok  " : "FAIL", line);
        ok = ok && pass;
    };

    const bool allFinite = std::all_of(samples.begin(), samples.end(), [](const SoakSample& s) { return s.finite; });
    verdict(allFinite, fmt::format("finite: every position and velocity of {} samples", samples.size()));

    double low = samples[settled].totalEnergy(), high = low;
    for (size_t i = settled; i < samples.size(); ++i) {
        low = std::min(low, samples[i].totalEnergy());
        high = std::max(high, samples[i].totalEnergy());
    }
    const double released = samples.front().totalEnergy() - low;
    verdict(released > 0 && high - low <= kEnergyBand * released,
            fmt::format("energy: {:.6g} J to {:.6g} J from frame {} on, a band of {:.3g} J = {:.3g}% of the {:.6g} J "
                        "released by the fall (at most {:g}%)",
                        low, high, samples[settled].frame, high - low, 100.0 * (high - low) / released, released,
                        100.0 * kEnergyBand));

    const SoakSample& first = samples[settled];
    const SoakSample& last = samples.back();
    const double growth = double(last.residentBytes) - double(first.residentBytes);
    verdict(growth <= double(kResidentGrowthBytes),
            fmt::format("host memory: RSS {:.2f} MiB at frame {}, {:.2f} MiB at frame {} ({:+.3f} MiB, at most +{:g})",
                        mebibytes(double(first.residentBytes)), first.frame, mebibytes(double(last.residentBytes)),
                        last.frame, mebibytes(growth), mebibytes(double(kResidentGrowthBytes))));

    const bool deviceFlat = std::all_of(samples.begin(), samples.end(), [&](const SoakSample& s) {
        return s.deviceBytes == samples.front().deviceBytes && s.deviceAllocations == samples.front().deviceAllocations;
    });
    verdict(deviceFlat, fmt::format("device memory: {:.2f} MiB in {} allocations at every sample",
                                    mebibytes(double(samples.front().deviceBytes)), samples.front().deviceAllocations));
    return ok;
}

int run(int argc, char** argv) {
    std::string scenePath = std::string(VKSIM_SOURCE_DIR) + "/tests/soak/soak_cloth.json";
    uint64_t frames = 100000;
    uint32_t every = 1000;
    double warmUp = 0.2;
    std::string csvFile;
    bool validate = false;
    CLI::App cli{"vksim_soak: a long headless run, checked for finiteness, energy, host and device memory"};
    cli.add_option("scene", scenePath, "scene file")->check(CLI::ExistingFile);
    cli.add_option("--frames", frames, "frames to run")->check(CLI::Range(uint64_t{3}, uint64_t{100000000}));
    cli.add_option("--every", every, "sample every K frames")->check(CLI::Range(1u, 1000000u));
    cli.add_option("--warm-up", warmUp, "share of the samples before the checks start")->check(CLI::Range(0.0, 0.9));
    cli.add_option("--csv", csvFile, "write every sample to this CSV file");
    cli.add_flag("--validate", validate, "Khronos validation and synchronization validation");
    CLI11_PARSE(cli, argc, argv);

    const Scene scene = loadScene(scenePath);
    ContextOptions options;
    options.validation = validate;
    VulkanContext ctx(options);
    requireFitsDevice(ctx, scene);
    World sim(ctx, scene, kHeadlessFramesInFlight);
    SoakSampler sampler(ctx, sim, every, kHeadlessFramesInFlight);
    FrameObserver* observers[] = {&sampler};
    fmt::print("{}: {} frames on {}, sampled every {}\n", scenePath, frames, ctx.deviceInfo().name, every);
    std::fflush(stdout);
    const uint64_t ran = simulateFrames(ctx, sim, frames, observers);

    const std::vector<SoakSample>& samples = sampler.samples();
    if (!csvFile.empty()) writeWholeFile(csvFile, csv(samples));
    const double seconds = samples.empty() ? 0.0 : samples.back().wallSeconds;
    fmt::print("{} frames in {:.1f} s: {:.0f} frames/s, {:.2f} simulated s per wall s\n", ran, seconds,
               double(ran) / seconds, double(ran) * scene.solver.timeStep / seconds);
    const bool ok = judge(samples, warmUp) && ran == frames;
    if (validate && ctx.validationCounts().total() > 0) {
        fmt::print("FAIL validation: {} messages\n", ctx.validationCounts().total());
        return 1;
    }
    return ok ? 0 : 1;
}

}  // namespace
}  // namespace vksim

int main(int argc, char** argv) {
    try {
        return vksim::run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vksim_soak: %s\n", e.what());
        return 1;
    }
}
