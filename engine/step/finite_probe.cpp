#include "step/finite_probe.h"

#include <array>

#include <fmt/format.h>

#include "shaders/shared/finite_check_types.h"
#include "shaders/rigid/rigid_types.h"
#include "step/finite_check_result.h"
#include "vk/barriers.h"

namespace vksim {
namespace {

// The vec4s of a gpu::RigidBodyState, in order, as a report names them.
constexpr std::array<const char*, 6> kBodyStateFields = {
    "position", "rotation", "linear velocity", "angular velocity", "start linear velocity", "start angular velocity"};
static_assert(sizeof(gpu::RigidBodyState) == kBodyStateFields.size() * sizeof(glm::vec4));

}  // namespace

FiniteProbe::FiniteProbe(const VulkanContext& ctx, uint32_t particleCount, uint32_t bodyCount)
    : particleCount_(particleCount), bodyCount_(bodyCount) {
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
    const bool bodies = first.elements == ProbedElements::Bodies;
    // A body state is six vec4s (kBodyStateFields), each checked as an element.
    const uint32_t elementCount = bodies ? static_cast<uint32_t>(kBodyStateFields.size()) * bodyCount_ : particleCount_;
    if (elementCount == 0) return;  // nothing of that kind to check
    const uint32_t bufferCount = second.buffer && !bodies ? 2 : 1;
    // With one buffer, binding 1 repeats binding 0 (the shader never reads it).
    const GpuBuffer* secondBuffer = bufferCount == 2 ? second.buffer : first.buffer;
    const auto number = static_cast<uint32_t>(labels_.size());
    labels_.push_back({std::string(pass), position, std::string(first.quantity), std::string(second.quantity),
                       first.elements, elementCount});

    const gpu::FiniteCheckPush push{elementCount, bufferCount, number, 0};
    computeToComputeBarrier(cmd);  // the pass's writes, read by the scan
    scan_->dispatch(cmd, {first.buffer, secondBuffer, &result_}, bufferCount * elementCount, push);
    computeToComputeBarrier(cmd);  // the scan's result, read by the capture
    capture_->dispatch(cmd, {first.buffer, secondBuffer, &result_}, 1, push);
    computeToComputeBarrier(cmd);  // the next pass overwrites what was read; the next check reads the result
}

std::optional<NonFiniteSite> FiniteProbe::takeFinding() {
    const gpu::FiniteCheckResult result = takeFiniteCheckResult(result_);
    if (result.firstBadCheck == gpu::kNoFiniteCheck) return std::nullopt;
    const Label& label = labels_.at(result.firstBadCheck);
    NonFiniteSite site;
    site.frame = frame_;
    site.pass = label.pass;
    site.position = label.position;
    if (label.elements == ProbedElements::Bodies) {
        site.body = result.firstBadIndex / static_cast<uint32_t>(kBodyStateFields.size());
        site.quantity = kBodyStateFields[result.firstBadIndex % kBodyStateFields.size()];
    } else {
        const bool inSecond = result.firstBadIndex >= label.elementCount;
        site.quantity = inSecond ? label.secondQuantity : label.firstQuantity;
        site.particle = inSecond ? result.firstBadIndex - label.elementCount : result.firstBadIndex;
    }
    site.value = result.firstBadValue;
    site.nonFiniteCount = result.badCount;
    return site;
}

}  // namespace vksim
