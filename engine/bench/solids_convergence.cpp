#include "bench/solids_convergence.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "bench/bench_stats.h"
#include "run/frame_loop.h"
#include "solvers/elastic_solid_reference.h"
#include "vk/context.h"
#include "world/world.h"

namespace vksim {
namespace {

constexpr double kStep = 1.0 / 60.0;

SolidObject block(uint32_t cells) {
    SolidObject solid;
    solid.name = "block";
    solid.shape = SolidShape::Box;
    solid.cells = glm::uvec3(cells);
    solid.size = glm::vec3(0.1f * static_cast<float>(cells));
    solid.material = ElasticMaterial{.youngsModulus = 1e5f, .poissonRatio = 0.3f, .density = 1000.0f};
    return solid;
}

// The measured state: stretched, sheared and thrown (as the convergence
// test's, physics §16), in the floats the GPU is given.
struct StartState {
    std::vector<glm::vec3> x, v;
    std::vector<glm::dvec3> y;  // x + h v, as predict.comp computes it (no gravity, no damping)
};

StartState startState(const ElasticSolidModel& reference, double size) {
    StartState s;
    for (const glm::dvec3& p : reference.rest) {
        const glm::dvec3 q = p / size;  // the block's coordinates scaled to its side
        s.x.emplace_back(glm::dvec3(1.3 * p.x + 0.2 * p.y, p.y, p.z));
        s.v.emplace_back(glm::dvec3(0.5 - 2.0 * q.y, 1.0, 3.0 * q.x));
        s.y.emplace_back(s.x.back() + static_cast<float>(kStep) * s.v.back());
    }
    return s;
}

struct Method {
    const char* name;
    SolidMethod method;
    std::function<void(SolverSettings&, uint32_t)> configure;
};

std::vector<Method> methods() {
    return {
        {"xpbd per-colour", SolidMethod::Xpbd,
         [](SolverSettings& s, uint32_t k) {
             s.pbd.iterations = k;
             s.pbd.path = PbdPath::PerColour;
         }},
        {"xpbd workgroup", SolidMethod::Xpbd,
         [](SolverSettings& s, uint32_t k) {
             s.pbd.iterations = k;
             s.pbd.path = PbdPath::Workgroup;
         }},
        {"vbd", SolidMethod::Vbd, [](SolverSettings& s, uint32_t k) { s.vbd.iterations = k; }},
        {"pd J=40", SolidMethod::Pd,
         [](SolverSettings& s, uint32_t k) {
             s.pd.localIterations = k;
             s.pd.jacobiIterations = 40;
         }},
    };
}

// One frame from the start state; the frame's timeline.
FrameTimeline stepOnce(const VulkanContext& ctx, World& sim, const StartState& start) {
    sim.setPositions(start.x);
    sim.setVelocities(start.v);
    simulateFrames(ctx, sim, 1);
    return sim.timer().lastCollectedFrame();
}

SolidsConvergencePoint measure(const VulkanContext& ctx, const Scene& scene, const StartState& start,
                               const ElasticSolidModel& reference, const std::vector<glm::dvec3>& star,
                               double objectiveStar, uint32_t timingFrames) {
    World sim(ctx, scene, kHeadlessFramesInFlight);
    SolidsConvergencePoint point;
    point.dispatches = static_cast<uint32_t>(stepOnce(ctx, sim, start).runs.size());
    std::vector<glm::dvec3> x;
    for (const glm::vec4& p : sim.particles().readPositions()) x.emplace_back(glm::vec3(p));
    const double objective = elasticObjective(reference, {.inertia = start.y, .h = kStep}, x);
    point.gap = (objective - objectiveStar) / std::abs(objectiveStar);
    for (size_t i = 0; i < x.size(); ++i) point.distance = std::max(point.distance, glm::length(x[i] - star[i]));
    sim.setPassTimings(false);
    std::vector<double> ms;
    for (uint32_t r = 0; r < std::max(timingFrames, 1u); ++r) {
        const FrameTimeline frame = stepOnce(ctx, sim, start);
        ms.push_back((frame.endNs - frame.beginNs) * 1e-6);
    }
    point.frameMs = median(ms);
    return point;
}

}  // namespace

SolidsConvergenceReport runSolidsConvergence(const VulkanContext& ctx, const SolidsConvergenceOptions& options) {
    SolidsConvergenceReport report;
    report.device = ctx.deviceInfo().name;
    report.cpuDevice = ctx.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    report.cells = options.cells;
    report.h = kStep;
    report.tolerances = options.tolerances;

    const SolidObject solid = block(options.cells);
    const ElasticSolidModel reference = elasticSolidModel(solid);
    report.particles = static_cast<uint32_t>(reference.rest.size());
    report.tetrahedra = static_cast<uint32_t>(reference.tets.size());
    const StartState start = startState(reference, solid.size.x);
    const ElasticObjective objective{.inertia = start.y, .h = kStep};
    const NewtonResult star = minimiseElasticObjective(reference, objective, start.y, 1e-9, 200);
    report.objectiveAtY = elasticObjective(reference, objective, start.y);
    report.objectiveStar = star.objective;
    report.newtonIterations = star.iterations;

    for (const Method& method : methods()) {
        SolidsConvergenceSeries series;
        series.method = method.name;
        for (uint32_t k : options.iterations) {
            Scene scene;
            scene.name = "solids-convergence";
            SolidObject s = solid;
            s.method = method.method;
            scene.solids.push_back(s);
            scene.solver.substeps = 1;
            scene.solver.timeStep = static_cast<float>(kStep);
            scene.solver.gravity = glm::vec3(0.0f);
            scene.solver.damping = 0.0f;
            method.configure(scene.solver, k);
            try {
                SolidsConvergencePoint point =
                    measure(ctx, scene, start, reference, star.x, report.objectiveStar, options.timingFrames);
                point.iterations = k;
                series.points.push_back(point);
            } catch (const NonFiniteError& e) {
                series.diverged = fmt::format("at {} iterations: {}", k, e.what());
                break;
            } catch (const std::invalid_argument& e) {  // e.g. the block does not fit one workgroup
                series.diverged = fmt::format("refused: {}", e.what());
                break;
            }
        }
        for (double tol : options.tolerances) {
            int reached = -1;
            for (size_t i = 0; i < series.points.size(); ++i)
                if (series.points[i].gap <= tol) {
                    reached = static_cast<int>(i);
                    break;
                }
            series.reached.push_back(reached);
        }
        report.series.push_back(std::move(series));
    }
    return report;
}

std::string formatSolidsConvergence(const SolidsConvergenceReport& r) {
    std::string out = fmt::format(
        "solids convergence on {}{}\n"
        "a Neo-Hookean block of {}^3 cells: {} particles, {} tetrahedra, stretched 30%, sheared and thrown; "
        "one substep h = {:.6f} s\n"
        "G(y) = {:.9g} J; G* = {:.9g} J: the CPU reference's minimum (double, Newton with a direct solve, "
        "{} iterations)\n",
        r.device, r.cpuDevice ? " (a CPU device: times are of the host's cores)" : "", r.cells, r.particles,
        r.tetrahedra, r.h, r.objectiveAtY, r.objectiveStar, r.newtonIterations);
    out += fmt::format("\n  {:<16} {:>13}", "method", "final rel gap");
    for (double tol : r.tolerances) out += fmt::format(" {:>18}", fmt::format("to {:.0e}", tol));
    out += "\n";
    for (const SolidsConvergenceSeries& s : r.series) {
        if (s.points.empty()) {
            out += fmt::format("  {:<16} {}\n", s.method, s.diverged);
            continue;
        }
        out += fmt::format("  {:<16} {:>13.3e}", s.method, s.points.back().gap);
        for (size_t t = 0; t < r.tolerances.size(); ++t) {
            if (s.reached[t] < 0) {
                out += fmt::format(" {:>18}", fmt::format("not in {}", s.points.back().iterations));
                continue;
            }
            const SolidsConvergencePoint& p = s.points[static_cast<size_t>(s.reached[t])];
            out += fmt::format(" {:>18}", fmt::format("{} it {:.2f} ms", p.iterations, p.frameMs));
        }
        out += "\n";
        if (!s.diverged.empty()) out += fmt::format("  {:<16} then {}\n", "", s.diverged);
    }
    out += "\n  per iteration count k: (G - G*) / |G*|, max |x - x*| [m], GPU ms of the frame, dispatches\n";
    out += fmt::format("  {:>5}", "k");
    for (const SolidsConvergenceSeries& s : r.series) out += fmt::format(" {:>40}", s.method);
    out += "\n";
    size_t longest = 0;
    for (const SolidsConvergenceSeries& s : r.series) longest = std::max(longest, s.points.size());
    for (size_t i = 0; i < longest; ++i) {
        uint32_t k = 0;
        for (const SolidsConvergenceSeries& s : r.series)
            if (i < s.points.size()) k = s.points[i].iterations;
        out += fmt::format("  {:>5}", k);
        for (const SolidsConvergenceSeries& s : r.series) {
            if (i >= s.points.size()) {
                out += fmt::format(" {:>40}", "");
                continue;
            }
            const SolidsConvergencePoint& p = s.points[i];
            out += fmt::format(" {:>10.3e} {:>9.2e} {:>10.3f} {:>8}", p.gap, p.distance, p.frameMs, p.dispatches);
        }
        out += "\n";
    }
    return out;
}

}  // namespace vksim
