#include "world/frame_time_limit.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "vk/context.h"
#include "vk/gpu_wait.h"

namespace vksim {
namespace {

// What each kind of work cost lavapipe at the least, in CPU time, divided
// by 4 so that a faster or idle CPU is not refused what it can run (the
// measurements: docs/benchmarks.md, "The frame-time estimate").
constexpr double kMargin = 4.0;
constexpr double kSecondsPerRun = 0.05e-3 / kMargin;            // a dispatch with its barrier
constexpr double kSecondsPerPdRow = 200e-9 / kMargin;           // one row of a Jacobi iteration in one workgroup
constexpr double kSecondsPerPbdConstraint = 40e-9 / kMargin;    // one projection in one workgroup
constexpr double kSecondsPerRigidPair = 12e-6 / kMargin;        // one pair's workgroup, CPU time (shared by the threads)
constexpr double kSecondsPerRigidSolve = 4e-6 / kMargin;        // a body or pair in the one-workgroup path
// Below this an estimate is never refused: a limit under a second is a test
// of the timeout itself, on a frame that is only slow.
constexpr double kLeastRefusedSeconds = 1.0;

}  // namespace

std::optional<FrameTimeEstimate> estimateFrameTime(const VulkanContext& ctx, const FrameWork& work) {
    if (ctx.properties().deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) return std::nullopt;
    // lavapipe runs a dispatch's workgroups on one thread per CPU.
    const double threads = std::max(1u, std::thread::hardware_concurrency());
    struct Part {
        double seconds;
        const char* path;
        std::string what;
        const char* lower;
    };
    const std::array<Part, 5> parts{{
        {double(work.runs) * kSecondsPerRun, "/solver", fmt::format("{} dispatches", work.runs),
         "/solver/substeps or the iterations"},
        {work.pdWorkgroupRows * kSecondsPerPdRow, "/solver/pd",
         fmt::format("{:.0f} row updates of PD's Jacobi iterations in one workgroup", work.pdWorkgroupRows),
         "/solver/pd/iterations, /solver/pd/jacobiIterations or /solver/substeps"},
        {work.pbdWorkgroupConstraints * kSecondsPerPbdConstraint, "/solver",
         fmt::format("{:.0f} PBD constraint projections in one workgroup", work.pbdWorkgroupConstraints),
         "/solver/iterations or /solver/substeps"},
        {work.rigidPairs * kSecondsPerRigidPair / threads, "/solver/rigid",
         fmt::format("{:.0f} rigid body pairs solved in the contact rounds", work.rigidPairs),
         "/solver/rigid/iterations or /solver/substeps, or use fewer bodies"},
        {work.rigidOneWorkgroup * kSecondsPerRigidSolve, "/solver/rigid",
         fmt::format("{:.0f} rigid bodies and pairs solved in one workgroup", work.rigidOneWorkgroup),
         "/solver/rigid/iterations or /solver/substeps, or \"path\": \"perSubstep\" (/solver/rigid/path)"},
    }};
    FrameTimeEstimate estimate;
    const Part* largest = &parts[0];
    for (const Part& part : parts) {
        estimate.seconds += part.seconds;
        if (part.seconds > largest->seconds) largest = &part;
    }
    estimate.path = largest->path;
    estimate.what = largest->what;
    estimate.lower = largest->lower;
    return estimate;
}

void refuseFramesPastTimeLimit(const VulkanContext& ctx, const std::string& scenePath, const FrameWork& work) {
    const double limit = gpuTimeoutSeconds();
    if (limit == 0.0) return;
    const std::optional<FrameTimeEstimate> estimate = estimateFrameTime(ctx, work);
    if (!estimate || estimate->seconds <= limit || estimate->seconds < kLeastRefusedSeconds) return;
    throw std::invalid_argument(fmt::format(
        "{}: {}: a frame needs at least {:.0f} s of GPU time on this device (most of it {}), more than the limit of "
        "{:g} s (VKSIM_GPU_TIMEOUT); lower {}",
        scenePath, estimate->path, estimate->seconds, estimate->what, limit, estimate->lower));
}

}  // namespace vksim
