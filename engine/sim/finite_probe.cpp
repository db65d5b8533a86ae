#include "sim/finite_probe.h"

#include <fmt/format.h>

#include "shared/finite_check_types.h"
#include "sim/finite_check_result.h"
#include "vk/barriers.h"

namespace vksim {
namespace {

// Distinct (first, second) buffer pairs the solver probes: (velocities,
// predicted), (predicted), (positions, velocities), (velocities), (normals).
constexpr uint32_t kMaxBufferPairs = 8;

}  // namespace

FiniteProbe::FiniteProbe(const VulkanContext& ctx, uint32_t particleCount) : particleCount_(particleCount) {
    scan_ = std::make_unique<ComputeKernel>(ctx, "debug/check_finite.comp", sizeof(gpu::FiniteCheckPush));
    capture_ = std::make_unique<ComputeKernel>(ctx, "debug/capture_non_finite.comp", sizeof(gpu::FiniteCheckPush));
    result_ = makeFiniteCheckResultBuffer(ctx, "finite probe result");
}

FiniteProbe::~FiniteProbe() = default;

void FiniteProbe::beginFrame(uint64_t frame) {
    frame_ = frame;
    labels_.clear();
    takeFiniteCheckResult(result_);  // clears it
}

void FiniteProbe::check(VkCommandBuffer cmd, std::string_view pass, StepPosition position, ProbedBuffer first,
                        ProbedBuffer second) {
    const uint32_t bufferCount = second.buffer ? 2 : 1;
    // With one buffer, binding 1 repeats binding 0 (the shader never reads it).
    const GpuBuffer* secondBuffer = second.buffer ? second.buffer : first.buffer;
    const auto number = static_cast<uint32_t>(labels_.size());
    labels_.push_back({std::string(pass), position, std::string(first.quantity), std::string(second.quantity)});

    const gpu::FiniteCheckPush push{particleCount_, bufferCount, number, 0};
    computeToComputeBarrier(cmd);  // the pass's writes, read by the scan
    scan_->dispatch(cmd, {first.buffer, secondBuffer, &result_}, bufferCount * particleCount_, push);
    computeToComputeBarrier(cmd);  // the scan's result, read by the capture
    capture_->dispatch(cmd, {first.buffer, secondBuffer, &result_}, 1, push);
    computeToComputeBarrier(cmd);  // the next pass overwrites what was read; the next check reads the result
}

std::optional<NonFiniteSite> FiniteProbe::takeFinding() {
    const gpu::FiniteCheckResult result = takeFiniteCheckResult(result_);
    if (result.firstBadCheck == gpu::kNoFiniteCheck) return std::nullopt;
    const Label& label = labels_.at(result.firstBadCheck);
    const bool inSecond = result.firstBadIndex >= particleCount_;
    NonFiniteSite site;
    site.frame = frame_;
    site.pass = label.pass;
    site.position = label.position;
    site.quantity = inSecond ? label.secondQuantity : label.firstQuantity;
    site.particle = inSecond ? result.firstBadIndex - particleCount_ : result.firstBadIndex;
    site.value = result.firstBadValue;
    site.nonFiniteCount = result.badCount;
    return site;
}

}  // namespace vksim
