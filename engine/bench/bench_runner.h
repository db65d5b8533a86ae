#pragma once
// Runs the benchmark suite (bench_scenes.h) on one device: the dispatch
// calibration, then every selected scene at every size, headless, warm-up
// frames first and not measured, then per pass family the GPU time per step,
// its throughput and bandwidth, and per scene the scaling of step time with
// problem size.
#include <cstdint>
#include <string>
#include <vector>

#include "bench/bench_results.h"

namespace vksim {

class VulkanContext;

struct BenchOptions {
    std::string filter;            // substring of scene names; "" = all
    std::vector<uint32_t> sizes;   // empty: each scene's defaults for this device
    uint32_t frames = 20;          // measured per size
    uint32_t warmup = 5;           // run before, not measured
    std::string outFile;           // .csv or .json; "" = none
    std::string device;            // as --device
    bool validate = false;         // as --validate
    bool quiet = false;            // no progress bar
    // Instead of the suite: Newton against vertex block descent on one
    // substep of cloth-springs (springs_convergence.h), at sizes[0] (or 32).
    bool springsConvergence = false;
    bool solidsConvergence = false;  // bench/solids_convergence.h
};

// Runs what `options` selects on `ctx`. Sizes the device cannot hold (memory,
// workgroup count) are skipped with the reason. Throws std::invalid_argument
// when the filter matches no scene.
BenchReport runBenchmarks(const VulkanContext& ctx, const BenchOptions& options);

}  // namespace vksim
