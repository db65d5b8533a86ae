#pragma once
// What `vksim bench` measured, as bench_report.h prints and writes it. A step
// is one frame of simulation (timeStep: substeps x iterations of every
// colour), the same unit as "step total" in the timing table.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "bench/dispatch_calibration.h"

namespace vksim {

// One pass family (all colours of a constraint family together) at one size.
struct PassFamilyResult {
    std::string family;
    std::string element;           // what one thread handles; "" without a byte model
    uint32_t runsPerStep = 0;      // dispatches of this family per step
    uint64_t elementsPerStep = 0;  // elements processed per step, over all runs
    double medianMs = 0;           // GPU time per step, its runs summed; median over measured frames
    double p95Ms = 0;
    double elementsPerSecond = 0;
    uint64_t bytesPerStep = 0;     // from the byte model (pass_traffic.h); 0 without one
    double gigabytesPerSecond = 0;  // bytesPerStep / medianMs
    bool hasByteModel = false;
};

// One scene at one size.
struct SizeResult {
    std::string scene;
    uint32_t size = 0;
    uint64_t particles = 0;
    uint64_t constraints = 0;       // elements of all constraint families (the scaling check's x)
    uint32_t dispatchesPerStep = 0;
    double stepMedianMs = 0;        // first to last timestamp of the step
    double stepP95Ms = 0;
    uint64_t constraintSolvesPerStep = 0;  // constraint projections per step (every colour, iteration, substep)
    double constraintsPerSecond = 0;  // constraintSolvesPerStep per second of step time
    uint64_t bytesPerStep = 0;        // over the families with a byte model
    double wallMsPerStep = 0;         // host wall-clock time per frame while measuring (submission, waits)
    double simulatedPerWallSecond = 0;  // simulated seconds per wall-clock second: timeStep / wallMsPerStep
    // A batch scene's copies (0: not a batch): the step time per copy, and
    // the copies' simulated seconds per wall-clock second, together.
    uint32_t copies = 0;
    double stepMsPerCopy = 0;
    double copySecondsPerWallSecond = 0;
    // The same frames without a timestamp pair around each pass, as a run
    // that shows no per-pass times records them (World::setPassTimings):
    // step time (first to last timestamp of the frame), wall clock, and
    // simulated seconds per wall-clock second.
    double untimedStepMedianMs = 0;
    double untimedWallMsPerStep = 0;
    double untimedSimulatedPerWallSecond = 0;
    double recordingMs = 0;           // median host time of a frame that records its commands
    double hostMsPerStep = 0;         // median host time per measured frame (replaying its commands)
    // PBD: mean |C| [m] of the distance constraints after the last iteration
    // of a frame tracked after the measured ones (convergence at equal
    // iteration counts across paths); NaN without distance constraints.
    double pbdResidual = std::numeric_limits<double>::quiet_NaN();
    std::vector<PassFamilyResult> passes;  // step order
};

// Per-step time against problem size for one scene.
struct ScalingResult {
    std::string scene;
    double slope = 0;  // least squares of log(step ms) on log(constraints)
    bool valid = false;  // false with fewer than two sizes
};

struct SkippedSize {
    std::string scene;
    uint32_t size = 0;
    std::string reason;
};

struct BenchDevice {
    std::string name, type, driver, vulkan;
};

struct BenchReport {
    BenchDevice device;
    uint32_t frames = 0;  // measured per size
    uint32_t warmup = 0;  // run first and not measured
    DispatchCalibration calibration;
    std::vector<SizeResult> results;
    std::vector<ScalingResult> scaling;
    std::vector<SkippedSize> skipped;
};

}  // namespace vksim
