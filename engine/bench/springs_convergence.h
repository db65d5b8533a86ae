#pragma once
// `vksim bench --springs-convergence`: the GPU time Newton's method and
// vertex block descent take to minimise the same implicit Euler objective F
// (docs/physics.md §9.3, §9.6) to the same accuracy, from the same state.
//
// The `cloth-springs` bench scene (bench_scenes.cpp) at one size is warmed up
// for `warmupFrames` frames with its own settings (implicit Euler, 3 Newton x
// 40 Jacobi; deterministic, so every World reaches the same state bit for
// bit), then one substep (the frame's only one) is solved by each method with
// residual tracking on: F [J] and ||grad F|| [N] at x = y and after every
// Newton iteration or VBD sweep (World::lastSpringObjectivePerIteration).
// Newton runs at several Jacobi counts per linear solve. F* is the minimum
// the CPU reference finds by Newton to convergence in double with exact
// sparse solves (SpringReference) from the downloaded state, y computed in
// float as predict.comp does; the GPU's F is float, so the report also gives
// the GPU-CPU difference of F(y), the resolution of the gaps. A method whose
// measured frames go non-finite is reported as diverged.
//
// Time to iteration k is the GPU time of the solver's passes of iterations
// 1..k (Newton: assemble, the Jacobi iterations, update; VBD: the copy x = y
// and one pass per colour per sweep; the tracking passes excluded), each
// iteration's time the median over the tracked frame and `timingFrames`
// more frames with the same settings. The report gives, per method and per
// relative tolerance tol, the first iteration with (F - F*) / |F*| <= tol and
// the time to reach it.
#include <cstdint>
#include <string>
#include <vector>

namespace vksim {

class VulkanContext;

struct SpringsConvergenceOptions {
    uint32_t size = 32;           // vertices per side of cloth-springs
    uint32_t warmupFrames = 30;   // frames before the measured substep
    uint32_t timingFrames = 4;    // extra frames per method for the per-iteration medians
    uint32_t newtonIterations = 12;
    std::vector<uint32_t> jacobiIterations{10, 40, 160};
    uint32_t vbdSweeps = 400;
    // F is evaluated and summed in float on the GPU: relative differences
    // below ~1e-5 are at its resolution (the report prints the GPU-CPU gap).
    std::vector<double> tolerances{1e-1, 1e-2, 1e-3, 1e-4, 1e-5};
};

struct SpringsConvergenceSeries {
    std::string method;    // "newton J=40", "vbd"
    uint32_t iterations = 0;
    std::vector<double> objective;   // F at x = y, then after each iteration [J]
    std::vector<double> gradient;    // ||grad F|| likewise [N]
    double initMs = 0;               // VBD: the copy x = y; Newton: 0
    std::vector<double> iterationMs;  // per iteration, median over frames
    uint32_t dispatchesPerIteration = 0;
    // Per tolerance: the first iteration reaching it (0 = F(y) already did),
    // or -1; and the GPU time to it.
    std::vector<int> iterationsTo;
    std::vector<double> msTo;
    std::string diverged;  // the non-finite report when a measured frame went NaN or Inf
};

struct SpringsConvergenceReport {
    std::string device;
    bool cpuDevice = false;
    uint32_t size = 0, particles = 0, springs = 0, colours = 0;
    double h = 0;
    double objectiveStar = 0;        // F*: the CPU reference's converged F (double)
    double objectiveStarCpu = 0;     // the same
    double gradientStarCpu = 0;      // its ||grad F||
    uint32_t cpuNewtonIterations = 0;
    double objectiveAtYCpu = 0;      // F(y) in double, against the GPU's F(y)
    std::vector<double> tolerances;
    std::vector<SpringsConvergenceSeries> series;
};

SpringsConvergenceReport runSpringsConvergence(const VulkanContext& ctx, const SpringsConvergenceOptions& options);

std::string formatSpringsConvergence(const SpringsConvergenceReport& report);

}  // namespace vksim
