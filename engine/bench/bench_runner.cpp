#include "bench/bench_runner.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "bench/bench_scenes.h"
#include "bench/bench_stats.h"
#include "bench/pass_traffic.h"
#include "run/frame_loop.h"
#include "run/progress_bar.h"
#include "solvers/pbd/colour_steps.h"
#include "solvers/pbd/pbd_solver.h"
#include "solvers/pd/pd_solver.h"
#include "vk/context.h"
#include "world/device_limits.h"
#include "world/world.h"

namespace vksim {
namespace {

// From frame `fromFrame` on: when each frame was collected, and its step
// time (the frame's first to last timestamp), which a frame has whether its
// passes are timed or not.
class StepSampler : public FrameObserver {
public:
    StepSampler(const GpuTimer& timer, uint64_t fromFrame) : timer_(timer), fromFrame_(fromFrame) {}

    void frameCollected(uint32_t /*slot*/, uint64_t frame) override {
        if (frame < fromFrame_) return;
        wallClock.push_back(std::chrono::steady_clock::now());
        const FrameTimeline& timeline = timer_.lastCollectedFrame();
        stepMs.push_back((timeline.endNs - timeline.beginNs) * 1e-6);
        sampleFrame(timeline);
    }

    // Wall-clock milliseconds per frame between the first and the last collected, or 0.
    double wallMsPerFrame() const {
        if (wallClock.size() < 2) return 0.0;
        const std::chrono::duration<double, std::milli> span = wallClock.back() - wallClock.front();
        return span.count() / static_cast<double>(wallClock.size() - 1);
    }

    std::vector<std::chrono::steady_clock::time_point> wallClock;  // [sampled frame]
    std::vector<double> stepMs;                                     // [sampled frame]

protected:
    // What a subclass takes from each sampled frame besides.
    virtual void sampleFrame(const FrameTimeline& /*timeline*/) {}
    uint64_t fromFrame() const { return fromFrame_; }

private:
    const GpuTimer& timer_;
    uint64_t fromFrame_;
};

// Per measured frame (after the warm-up), besides the step: the GPU time of
// each pass family (its runs summed), how often each family runs per step,
// and the host's cost of recording or replaying the frame.
class FamilySampler : public StepSampler {
public:
    FamilySampler(const World& world, const GpuTimer& timer, uint32_t warmupFrames)
        : StepSampler(timer, warmupFrames), world_(world) {
        for (uint32_t id = 0; id < timer.passCount(); ++id) {
            const std::string family = passFamily(timer.passName(id));
            auto it = std::find(families.begin(), families.end(), family);
            if (it == families.end()) it = families.insert(families.end(), family);
            familyOfPass_.push_back(static_cast<size_t>(it - families.begin()));
        }
        familyMs.resize(families.size());
        runsPerStep.assign(families.size(), 0);
        passesRun.assign(families.size(), 0);
    }

    // The host's cost of a frame: recording its commands (every warm-up
    // frame records, runOne turns reuse off for them) or replaying them.
    void frameRecorded(VkCommandBuffer /*cmd*/, uint32_t /*slot*/, uint64_t frame) override {
        if (!world_.lastFrameReplayed()) recordingMs.push_back(world_.lastFrameHostMs());
        if (frame >= fromFrame()) hostMs.push_back(world_.lastFrameHostMs());
    }

    std::vector<std::string> families;          // step order
    std::vector<std::vector<double>> familyMs;  // [family][measured frame]
    std::vector<uint32_t> runsPerStep;          // [family], of the last measured frame
    std::vector<uint32_t> passesRun;            // [family]: distinct passes (colours) that ran
    // Host time of each frame that recorded its commands, and of each
    // measured frame (which replay theirs, after the first in each slot).
    std::vector<double> recordingMs, hostMs;

protected:
    void sampleFrame(const FrameTimeline& timeline) override {
        std::vector<double> ms(families.size(), 0.0);
        std::fill(runsPerStep.begin(), runsPerStep.end(), 0);
        std::fill(passesRun.begin(), passesRun.end(), 0);
        std::vector<bool> seen(familyOfPass_.size(), false);
        for (const PassRunInterval& run : timeline.runs) {
            const size_t family = familyOfPass_.at(run.passId);
            ms[family] += (run.endNs - run.beginNs) * 1e-6;
            ++runsPerStep[family];
            if (!seen[run.passId]) ++passesRun[family];
            seen[run.passId] = true;
        }
        for (size_t f = 0; f < families.size(); ++f) familyMs[f].push_back(ms[f]);
    }

private:
    const World& world_;
    std::vector<size_t> familyOfPass_;
};

// Why `scene` at `size` cannot run on this device, or "" when it can: the
// estimate World checks every scene with (solvers/device_footprint.h), made
// before anything is built.
std::string whyNotRunnable(const VulkanContext& ctx, const BenchScene& scene, uint32_t size) {
    const auto problem = checkDeviceFootprint(scene.build(size), deviceLimits(ctx));
    return problem ? problem->problem : std::string();
}

// The constraint projections of one frame of the PBD workgroup solve: every
// constraint, every iteration of every substep, in its one dispatch.
uint64_t workgroupSolvesPerStep(const SimModel& model, const SolverSettings& settings) {
    return static_cast<uint64_t>(model.pbd.distance.size() + model.pbd.bending.size() + model.pbd.attachments.size()) *
           settings.substeps * settings.pbd.iterations;
}

SizeResult summarize(const BenchScene& benchScene, uint32_t size, const World& world, const FamilySampler& sampler) {
    const SimModel& model = world.model();
    SizeResult result;
    result.scene = std::string(benchScene.name);
    result.size = size;
    result.particles = model.particleCount();
    result.stepMedianMs = median(sampler.stepMs);
    if (benchScene.copies) {
        result.copies = benchScene.copies(size);
        result.stepMsPerCopy = result.stepMedianMs / result.copies;
    }
    result.stepP95Ms = percentile(sampler.stepMs, 95);
    uint64_t constraintsPerStep = 0;
    for (size_t f = 0; f < sampler.families.size(); ++f) {
        if (sampler.runsPerStep[f] == 0) continue;  // registered but not run (e.g. no colliders)
        PassFamilyResult pass;
        pass.family = sampler.families[f];
        pass.runsPerStep = sampler.runsPerStep[f];
        pass.medianMs = median(sampler.familyMs[f]);
        pass.p95Ms = percentile(sampler.familyMs[f], 95);
        if (pass.family == WorkgroupPath::kPassName) {
            pass.element = "PBD constraint";
            pass.elementsPerStep = workgroupSolvesPerStep(model, world.scene().solver);
            constraintsPerStep += pass.elementsPerStep;
        } else if (pass.family == ClusterPath::kSweepPassNames[0] ||
                   pass.family == ClusterPath::kSweepPassNames[1]) {
            // Like the workgroup solve, no byte model: its own constraints, every run.
            const uint32_t sweep = pass.family == ClusterPath::kSweepPassNames[0] ? 0 : 1;
            pass.element = "PBD constraint";
            pass.elementsPerStep = pass.runsPerStep * world.solver<PbdSolver>().clusterPath().sweepConstraints(sweep);
            constraintsPerStep += pass.elementsPerStep;
        } else if (pass.family == PdJacobiInWorkgroup::kPassName) {
            // J iterations per run, each a sweep of the per-iteration kernel's byte model.
            const PassTraffic& jacobi = *findPassTraffic("pd: jacobi/chebyshev");
            const uint64_t sweeps = uint64_t{pass.runsPerStep} * world.scene().solver.pd.jacobiIterations;
            pass.hasByteModel = true;
            pass.element = std::string(elementName(jacobi.element));
            pass.elementsPerStep = sweeps * elementsPerSweep(jacobi.element, model);
            pass.bytesPerStep = sweeps * bytesPerSweep(jacobi, model);
        } else if (pass.family == std::string(PbdSolver::kPassPrefix) + kSharedColourFamily) {
            // "pbdColouring": "acrossFamilies": each shared colour (and the
            // overflow step) is one pass over every family, so runs / passes
            // = sweeps per step, each the three families' byte models.
            const uint64_t sweeps = pass.runsPerStep / std::max<uint32_t>(1, sampler.passesRun[f]);
            pass.hasByteModel = true;
            pass.element = "PBD constraint";
            for (const char* family : kPbdFamilyNames) {
                const PassTraffic& traffic = *findPassTraffic(std::string(PbdSolver::kPassPrefix) + family);
                pass.elementsPerStep += sweeps * elementsPerSweep(traffic.element, model);
                pass.bytesPerStep += sweeps * bytesPerSweep(traffic, model);
            }
            constraintsPerStep += pass.elementsPerStep;
        } else if (pass.family.starts_with("rigid: ")) {
            // Every contact point of every body is tested each substep: the
            // rigid passes' cost per point (and per body: divide by points per body).
            pass.element = "contact point x substep";
            pass.elementsPerStep = model.rigid.points.size() * world.scene().solver.substeps;
        } else if (const PassTraffic* traffic = findPassTraffic(pass.family)) {
            // Each colour of a family (and its overflow group) is one pass: runs / passes = sweeps per
            // step; a pass of several runs once a frame says how many sweeps its row models.
            const uint64_t sweeps = traffic->sweepsPerStep > 0
                                        ? traffic->sweepsPerStep
                                        : pass.runsPerStep / std::max<uint32_t>(1, sampler.passesRun[f]);
            pass.hasByteModel = true;
            pass.element = std::string(elementName(traffic->element));
            pass.elementsPerStep = sweeps * elementsPerSweep(traffic->element, model);
            pass.bytesPerStep = sweeps * bytesPerSweep(*traffic, model);
            if (isConstraint(traffic->element)) constraintsPerStep += pass.elementsPerStep;
            // A mass-spring pass that evaluates every spring (force, Newton
            // assembly, VBD sweep) solves each once per sweep.
            if (evaluatesSprings(*traffic)) constraintsPerStep += sweeps * model.springs.springs.size();
        }
        if (pass.medianMs > 0) {
            pass.elementsPerSecond = static_cast<double>(pass.elementsPerStep) / (pass.medianMs * 1e-3);
            pass.gigabytesPerSecond = static_cast<double>(pass.bytesPerStep) / (pass.medianMs * 1e-3) * 1e-9;
        }
        result.dispatchesPerStep += pass.runsPerStep;
        result.bytesPerStep += pass.bytesPerStep;
        result.passes.push_back(std::move(pass));
    }
    // PBD constraints, PD elements (springs, triangles, tetrahedra, ...) and mass-spring springs.
    result.constraints = model.pbd.distance.size() + model.pbd.bending.size() + model.pbd.attachments.size() +
                         model.pd.elementCount() + model.springs.springs.size();
    result.constraintSolvesPerStep = constraintsPerStep;
    result.wallMsPerStep = sampler.wallMsPerFrame();
    if (result.wallMsPerStep > 0)
        result.simulatedPerWallSecond = world.scene().solver.timeStep / (result.wallMsPerStep * 1e-3);
    result.copySecondsPerWallSecond = result.copies * result.simulatedPerWallSecond;
    if (!sampler.recordingMs.empty()) result.recordingMs = median(sampler.recordingMs);
    if (!sampler.hostMs.empty()) result.hostMsPerStep = median(sampler.hostMs);
    if (result.stepMedianMs > 0)
        result.constraintsPerSecond = static_cast<double>(constraintsPerStep) / (result.stepMedianMs * 1e-3);
    return result;
}

SizeResult runOne(const VulkanContext& ctx, const BenchScene& benchScene, uint32_t size,
                  const BenchOptions& options) {
    World sim(ctx, benchScene.build(size), kHeadlessFramesInFlight);
    FamilySampler sampler(sim, sim.timer(), options.warmup);
    std::vector<FrameObserver*> observers{&sampler};
    std::unique_ptr<ProgressBar> progress;
    if (progressBarWanted(options.quiet)) {
        progress = std::make_unique<ProgressBar>(fmt::format("{} {}", benchScene.name, size),
                                                 options.warmup + options.frames);
        observers.push_back(progress.get());
    }
    // The warm-up records every frame, which measures recording; the
    // measured frames replay the commands, as every run does.
    sim.setCommandReuse(false);
    simulateFrames(ctx, sim, options.warmup, observers);
    sim.setCommandReuse(true);
    simulateFrames(ctx, sim, options.frames, observers);
    SizeResult result = summarize(benchScene, size, sim, sampler);
    // Then as many frames again without pass timestamps, as a run that shows
    // no per-pass times records them (World::setPassTimings): what the
    // timestamp pairs cost. The first frame of each slot records anew.
    sim.setPassTimings(false);
    StepSampler untimed(sim.timer(), sim.framesRecorded() + kHeadlessFramesInFlight);
    simulateFrames(ctx, sim, kHeadlessFramesInFlight + options.frames, std::vector<FrameObserver*>{&untimed});
    sim.setPassTimings(true);
    result.untimedStepMedianMs = median(untimed.stepMs);
    result.untimedWallMsPerStep = untimed.wallMsPerFrame();
    if (result.untimedWallMsPerStep > 0)
        result.untimedSimulatedPerWallSecond = sim.scene().solver.timeStep / (result.untimedWallMsPerStep * 1e-3);
    // Then a few frames with residual tracking (its passes would distort the
    // timings): the values of a frame arrive when its slot is collected.
    if (!sim.model().pbd.distance.empty()) {
        sim.setResidualTracking(true);
        simulateFrames(ctx, sim, 1 + kHeadlessFramesInFlight);
        const std::vector<float> curve = sim.lastResidualPerIteration();
        if (!curve.empty()) result.pbdResidual = curve.back();
    }
    return result;
}

}  // namespace

BenchReport runBenchmarks(const VulkanContext& ctx, const BenchOptions& options) {
    std::vector<const BenchScene*> selected;
    std::string names;
    for (const BenchScene& scene : benchScenes()) {
        names += (names.empty() ? "" : ", ") + std::string(scene.name);
        if (scene.name.find(options.filter) != std::string_view::npos) selected.push_back(&scene);
    }
    if (selected.empty())
        throw std::invalid_argument(fmt::format("no benchmark scene matches '{}' (scenes: {})", options.filter, names));

    BenchReport report;
    const DeviceInfo& info = ctx.deviceInfo();
    report.device = {info.name, info.type, info.driver, info.apiVersion};
    report.frames = options.frames;
    report.warmup = options.warmup;
    report.calibration = calibrateDispatchCost(ctx);

    const bool cpuDevice = ctx.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    for (const BenchScene* scene : selected) {
        std::vector<uint32_t> sizes = options.sizes;
        if (sizes.empty())
            for (uint32_t size : scene->defaultSizes)
                if (!cpuDevice || size <= scene->cpuMaxDefaultSize) sizes.push_back(size);
        std::vector<double> constraints, stepMs;
        for (uint32_t size : sizes) {
            if (std::string why = whyNotRunnable(ctx, *scene, size); !why.empty()) {
                report.skipped.push_back({std::string(scene->name), size, std::move(why)});
                continue;
            }
            SizeResult result = runOne(ctx, *scene, size, options);
            constraints.push_back(static_cast<double>(result.constraints));
            stepMs.push_back(result.stepMedianMs);
            report.results.push_back(std::move(result));
        }
        const LogLogFit fit = fitLogLog(constraints, stepMs);
        report.scaling.push_back({std::string(scene->name), fit.slope, fit.valid});
    }
    return report;
}

}  // namespace vksim
