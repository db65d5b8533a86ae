#include "bench/bench_help.h"

#include <fmt/format.h>

#include "bench/bench_scenes.h"

namespace vksim {

std::string benchHelpFooter() {
    std::string scenes;
    for (const BenchScene& scene : benchScenes()) {
        std::string sizes;
        for (uint32_t size : scene.defaultSizes) sizes += (sizes.empty() ? "" : ",") + std::to_string(size);
        scenes += fmt::format("  {}: {}; size = {}; default sizes {} (on a CPU device up to {})\n", scene.name,
                              scene.description, scene.sizeMeaning, sizes, scene.cpuMaxDefaultSize);
    }
    return fmt::format(
        "Scenes (built in code, engine/bench/bench_scenes.cpp):\n{}"
        "On a CPU device (lavapipe) the default sizes stop early, as listed; sizes the device cannot hold are\n"
        "skipped.\n\n"
        "First a calibration measures the fixed cost of an empty dispatch. Then each scene runs headless at\n"
        "each size: --warmup frames, then --frames measured frames. Per pass family (all colours of a\n"
        "constraint family together), per step (= one frame): median and p95 GPU time, elements processed\n"
        "per second, bytes moved (byte models in engine/bench/pass_traffic.cpp) and effective bandwidth;\n"
        "dispatches per step; then the least-squares slope of log(step time) on log(constraints), where\n"
        "projective dynamics counts its elements (springs, triangles, tetrahedra, ...) as constraints.\n"
        "The table goes to stdout; --out writes it as CSV or JSON.\n\n"
        "--springs-convergence runs no suite: on one substep of cloth-springs (at the first of --sizes, default\n"
        "32) after 30 warm-up frames, Newton (12 iterations of 10, 40 and 160 Jacobi iterations) and vertex block\n"
        "descent (400 sweeps) minimise the same implicit Euler objective F; per method, the iterations and the\n"
        "GPU time of the solver passes to reach (F - F*) / |F*| <= 1e-1 ... 1e-5, F* the minimum the CPU\n"
        "reference finds (double, exact Newton) from the same state (docs/benchmarks.md).\n\n"
        "--solids-convergence runs no suite: one substep of a stretched, thrown Neo-Hookean block (cells per side:\n"
        "the first of --sizes, default 6), stepped by XPBD (per colour, one workgroup), vertex block descent and\n"
        "projective dynamics (40 Jacobi iterations) at 1, 2, 4 ... 256 iterations; per method, the iterations and\n"
        "the frame's GPU time to reach (G - G*) / |G*| <= 1e-1 ... 1e-5, G* the CPU reference's minimum.",
        scenes);
}

}  // namespace vksim
