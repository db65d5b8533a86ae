#include "bench/springs_convergence.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "bench/bench_scenes.h"
#include "bench/bench_stats.h"
#include "run/frame_loop.h"
#include "solvers/springs/spring_reference.h"
#include "vk/context.h"
#include "world/world.h"

namespace vksim {
namespace {

const BenchScene& springScene() {
    for (const BenchScene& scene : benchScenes())
        if (scene.name == "cloth-springs") return scene;
    throw std::logic_error("no cloth-springs bench scene");
}

// The solver passes of each Newton iteration or VBD sweep of the frame's
// substep, per frame: [iteration] -> GPU ms, and the VBD copy.
class IterationSampler : public FrameObserver {
public:
    IterationSampler(World& sim, uint32_t iterations, uint32_t jacobi, uint64_t firstFrame)
        : sim_(sim), iterations_(iterations), jacobi_(jacobi), firstFrame_(firstFrame) {}

    void frameCollected(uint32_t /*slot*/, uint64_t frame) override {
        if (frame < firstFrame_) return;
        if (frame == firstFrame_) {
            const std::vector<float> f = sim_.lastSpringObjectivePerIteration();
            const std::vector<float> g = sim_.lastSpringGradientPerIteration();
            objective.assign(f.begin(), f.end());
            gradient.assign(g.begin(), g.end());
        }
        std::vector<double> ms(iterations_, 0.0);
        double init = 0;
        uint32_t dispatches = 0;
        const GpuTimer& timer = sim_.timer();
        for (const PassRunInterval& run : timer.lastCollectedFrame().runs) {
            const std::string& name = timer.passName(run.passId);
            const double t = (run.endNs - run.beginNs) * 1e-6;
            if (name == "springs: vbd init") {
                init += t;
                continue;
            }
            uint32_t iteration = 0;
            if (name == "springs: newton contact totals" || name == "springs: newton assemble" ||
                name == "springs: newton update" ||
                name.starts_with("springs: line search") || name.starts_with("springs: vbd colour "))
                iteration = run.run;
            else if (name == "springs: jacobi/chebyshev")
                iteration = run.run / jacobi_;
            else
                continue;
            if (iteration < iterations_) ms[iteration] += t;
            if (iteration == 0) ++dispatches;
        }
        perFrame.push_back(std::move(ms));
        initMs.push_back(init);
        dispatchesPerIteration = dispatches;
    }

    std::vector<double> objective, gradient;
    std::vector<std::vector<double>> perFrame;
    std::vector<double> initMs;
    uint32_t dispatchesPerIteration = 0;

private:
    World& sim_;
    uint32_t iterations_, jacobi_;
    uint64_t firstFrame_;
};

// One World per method: the same warm-up, then the method's settings.
SpringsConvergenceSeries runMethod(const VulkanContext& ctx, const SpringsConvergenceOptions& options, bool vbd,
                            uint32_t iterations, uint32_t jacobi, uint32_t timingFrames) {
    const BenchScene& bench = springScene();
    Scene scene = bench.build(options.size);
    const SpringSettings warmup = scene.solver.springs;
    SpringSettings measured = warmup;
    measured.integrator = vbd ? SpringIntegrator::Vbd : SpringIntegrator::ImplicitEuler;
    measured.newtonIterations = iterations;
    measured.jacobiIterations = jacobi;
    measured.vbdIterations = iterations;
    scene.solver.springs = measured;  // sizes the timer for the measured frames
    World sim(ctx, scene, kHeadlessFramesInFlight);
    sim.scene().solver.springs = warmup;
    simulateFrames(ctx, sim, options.warmupFrames);

    sim.scene().solver.springs = measured;
    sim.setResidualTracking(true);
    IterationSampler sampler(sim, iterations, jacobi, sim.framesRecorded());
    std::vector<FrameObserver*> observers{&sampler};
    SpringsConvergenceSeries series;
    series.method = vbd ? "vbd" : fmt::format("newton J={}", jacobi);
    series.iterations = iterations;
    try {
        simulateFrames(ctx, sim, 1 + timingFrames, observers);
    } catch (const NonFiniteError& e) {
        // The measured solve went NaN or Inf (e.g. Chebyshev iterations
        // tuned to the rest shape's spectrum diverging on a stretched one).
        series.diverged = e.what();
        if (sampler.perFrame.empty()) return series;
    }
    series.objective = sampler.objective;
    series.gradient = sampler.gradient;
    series.dispatchesPerIteration = sampler.dispatchesPerIteration;
    series.initMs = median(sampler.initMs);
    for (uint32_t k = 0; k < iterations; ++k) {
        std::vector<double> samples;
        for (const std::vector<double>& frame : sampler.perFrame) samples.push_back(frame[k]);
        series.iterationMs.push_back(median(samples));
    }
    return series;
}

// The measured substep's state after the warm-up, and F* from the CPU
// reference (Newton to convergence, exact solves, double).
void cpuReference(const VulkanContext& ctx, const SpringsConvergenceOptions& options,
                  SpringsConvergenceReport& report) {
    const Scene scene = springScene().build(options.size);
    World sim(ctx, scene, kHeadlessFramesInFlight);
    simulateFrames(ctx, sim, options.warmupFrames);
    const std::vector<glm::vec4> x = sim.particles().readPositions();
    const std::vector<glm::vec4> v = sim.particles().readVelocities();
    const float h = scene.solver.timeStep / static_cast<float>(scene.solver.substeps);
    const glm::vec3 g = scene.solver.gravity;
    std::vector<glm::dvec3> x0(x.size()), y(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        x0[i] = glm::dvec3(glm::vec3(x[i]));
        // predict.comp's symplectic Euler in float (no damping), as the GPU computes y.
        const glm::vec3 vi = x[i].w > 0.0f ? glm::vec3(v[i]) + h * g : glm::vec3(0.0f);
        y[i] = glm::dvec3(glm::vec3(x[i]) + h * vi);
    }
    SpringReferenceOptions referenceOptions;
    referenceOptions.newtonTolerance = 1e-10;
    referenceOptions.maxNewtonIterations = 50;
    const SpringReference reference(sim.model(), referenceOptions);
    std::vector<ImplicitIterate> history;
    reference.newton(y, x0, h, 0, true, true, &history);
    report.objectiveAtYCpu = reference.objective(y, y, x0, h);
    report.objectiveStarCpu = history.back().objective;
    report.gradientStarCpu = history.back().gradientNorm;
    report.cpuNewtonIterations = static_cast<uint32_t>(history.size() - 1);
}

}  // namespace

SpringsConvergenceReport runSpringsConvergence(const VulkanContext& ctx, const SpringsConvergenceOptions& options) {
    SpringsConvergenceReport report;
    report.device = ctx.deviceInfo().name;
    report.cpuDevice = ctx.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    report.size = options.size;
    report.tolerances = options.tolerances;
    {
        const Scene scene = springScene().build(options.size);
        const SimModel model = buildModel(scene);
        report.particles = model.springs.particleCount;
        report.springs = static_cast<uint32_t>(model.springs.springs.size());
        report.colours = static_cast<uint32_t>(model.springs.vertexColours.size());
        report.h = scene.solver.timeStep / scene.solver.substeps;
    }
    cpuReference(ctx, options, report);
    report.objectiveStar = report.objectiveStarCpu;

    for (uint32_t jacobi : options.jacobiIterations)
        report.series.push_back(runMethod(ctx, options, false, options.newtonIterations, jacobi, options.timingFrames));
    report.series.push_back(runMethod(ctx, options, true, options.vbdSweeps, 1, options.timingFrames));

    const double scale = std::abs(report.objectiveStar);
    for (SpringsConvergenceSeries& s : report.series) {
        for (double tol : options.tolerances) {
            if (s.objective.empty()) {
                s.iterationsTo.push_back(-1);
                s.msTo.push_back(-1);
                continue;
            }
            int reached = -1;
            for (size_t k = 0; k < s.objective.size(); ++k)
                if (s.objective[k] - report.objectiveStar <= tol * scale) {
                    reached = static_cast<int>(k);
                    break;
                }
            double ms = -1;
            if (reached >= 0) {
                ms = reached > 0 ? s.initMs : 0.0;
                for (int k = 0; k < reached; ++k) ms += s.iterationMs[k];
            }
            s.iterationsTo.push_back(reached);
            s.msTo.push_back(ms);
        }
    }
    return report;
}

std::string formatSpringsConvergence(const SpringsConvergenceReport& r) {
    std::string out = fmt::format(
        "springs convergence on {}{}\n"
        "cloth-springs {}x{}: {} particles, {} springs, {} VBD colours; one substep h = {:.6f} s\n"
        "F* = {:.9g} J: the CPU reference's minimum (double, Newton with exact solves, {} iterations, "
        "|grad F| = {:.3g} N)\n",
        r.device, r.cpuDevice ? " (a CPU device: times are of the host's cores)" : "", r.size, r.size, r.particles,
        r.springs, r.colours, r.h, r.objectiveStar, r.cpuNewtonIterations, r.gradientStarCpu);
    for (const SpringsConvergenceSeries& s : r.series)
        if (!s.objective.empty()) {
            const double gpu = s.objective.front();
            out += fmt::format("F(y) = {:.9g} J on the GPU (float), {:.9g} J on the CPU: relative difference {:.2e}, "
                               "the resolution of the GPU's F (gaps below a few times that are noise); "
                               "(F(y) - F*) / |F*| = {:.3e}\n",
                               gpu, r.objectiveAtYCpu, (gpu - r.objectiveAtYCpu) / std::abs(r.objectiveAtYCpu),
                               (gpu - r.objectiveStar) / std::abs(r.objectiveStar));
            break;
        }
    out += fmt::format("\n  {:<14} {:>10} {:>12} {:>13} {:>12}", "method", "dispatches", "ms/iteration",
                       "final rel gap", "final |g| N");
    for (double tol : r.tolerances) out += fmt::format(" {:>16}", fmt::format("to {:.0e}", tol));
    out += "\n";
    for (const SpringsConvergenceSeries& s : r.series) {
        if (s.objective.empty()) {
            out += fmt::format("  {:<14} diverged: {}\n", s.method, s.diverged);
            continue;
        }
        const double perIteration =
            s.iterationMs.empty() ? 0.0 : [&] {
                double sum = 0;
                for (double ms : s.iterationMs) sum += ms;
                return sum / s.iterationMs.size();
            }();
        out += fmt::format("  {:<14} {:>10} {:>12.4f} {:>13.3e} {:>12.3e}", s.method, s.dispatchesPerIteration,
                           perIteration, (s.objective.back() - r.objectiveStar) / std::abs(r.objectiveStar),
                           s.gradient.back());
        for (size_t t = 0; t < r.tolerances.size(); ++t) {
            if (s.iterationsTo[t] < 0)
                out += fmt::format(" {:>16}", fmt::format("not in {}", s.iterations));
            else
                out += fmt::format(" {:>16}", fmt::format("{} it {:.2f} ms", s.iterationsTo[t], s.msTo[t]));
        }
        out += "\n";
        if (!s.diverged.empty()) out += fmt::format("  {:<14} then diverged: {}\n", "", s.diverged);
    }
    out += "\n  per iteration: (F - F*) / |F*|, then |grad F| [N]\n";
    size_t longest = 0;
    for (const SpringsConvergenceSeries& s : r.series) longest = std::max(longest, s.objective.size());
    out += fmt::format("  {:>5}", "k");
    for (const SpringsConvergenceSeries& s : r.series) out += fmt::format(" {:>22}", s.method);
    out += "\n";
    for (size_t k = 0; k < longest; ++k) {
        // Every iteration up to 20, then every 10th, then every 50th.
        if (k > 20 && (k < 100 ? k % 10 != 0 : k % 50 != 0) && k + 1 != longest) continue;
        out += fmt::format("  {:>5}", k);
        for (const SpringsConvergenceSeries& s : r.series) {
            if (k < s.objective.size() && k < s.gradient.size())
                out += fmt::format(" {:>11.3e} {:>10.3e}", (s.objective[k] - r.objectiveStar) / std::abs(r.objectiveStar),
                                   s.gradient[k]);
            else
                out += fmt::format(" {:>22}", "");
        }
        out += "\n";
    }
    return out;
}

}  // namespace vksim
