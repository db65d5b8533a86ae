#pragma once
// `vksim bench --solids-convergence`: the GPU time each solid solver needs
// to bring one implicit Euler step of the same tetrahedral block to the same
// objective G(x) = sum m/(2h^2) |x - y|^2 + sum V Psi(F) (docs/physics.md
// §16), from the same state.
//
// The state: a Neo-Hookean block (E = 1e5 Pa, nu = 0.3, 1000 kg/m^3) of
// `cells`^3 cells, 0.1 m each, stretched by 30% along x, sheared and
// thrown; no gravity, no pins, no damping, one substep h = 1/60 s. G* and
// its minimiser come from the CPU reference (elastic_solid_reference.h:
// Newton with a direct solve, in double). Each method then steps that
// state once per iteration count k = 1, 2, 4, ... (a World per k, the state
// written into it): G of its result, evaluated in double on the CPU, and
// the GPU time of the frame (timestamp to timestamp, without per-pass
// timestamps; the median over `timingFrames` runs from the same state).
// The report gives, per method and relative tolerance tol, the first k with
// (G - G*) / |G*| <= tol and that frame's time, and the dispatches (pass
// runs) of one frame per k.
//
// XPBD and VBD minimise G itself; projective dynamics minimises its own
// energy (strain 2 mu, volume 3 lambda: the material mapping), so its G
// stops at the gap between the two models' minimisers.
#include <cstdint>
#include <string>
#include <vector>

namespace vksim {

class VulkanContext;

struct SolidsConvergenceOptions {
    uint32_t cells = 6;         // per side of the block
    uint32_t timingFrames = 3;  // runs per k for the median time
    std::vector<uint32_t> iterations{1, 2, 4, 8, 16, 32, 64, 128, 256};
    std::vector<double> tolerances{1e-1, 1e-2, 1e-3, 1e-4, 1e-5};
};

struct SolidsConvergencePoint {
    uint32_t iterations = 0;
    double gap = 0;  // (G - G*) / |G*|
    double distance = 0;  // max |x - x*| [m]
    double frameMs = 0;   // median GPU time of the frame
    uint32_t dispatches = 0;
};

struct SolidsConvergenceSeries {
    std::string method;  // "xpbd per-colour", "xpbd workgroup", "vbd", "pd J=40"
    std::vector<SolidsConvergencePoint> points;
    // Per tolerance: the index into points of the first reaching it, or -1.
    std::vector<int> reached;
    std::string diverged;  // the non-finite report, when a frame went NaN or Inf
};

struct SolidsConvergenceReport {
    std::string device;
    bool cpuDevice = false;
    uint32_t cells = 0, particles = 0, tetrahedra = 0;
    double h = 0;
    double objectiveAtY = 0;     // G(y) [J]
    double objectiveStar = 0;    // G* [J]
    uint32_t newtonIterations = 0;
    std::vector<double> tolerances;
    std::vector<SolidsConvergenceSeries> series;
};

SolidsConvergenceReport runSolidsConvergence(const VulkanContext& ctx, const SolidsConvergenceOptions& options);

std::string formatSolidsConvergence(const SolidsConvergenceReport& report);

}  // namespace vksim
