#include "step/keyframe_stage.h"

#include "state/collider_set.h"

namespace vksim {

namespace {

std::vector<gpu::KeyframeClock> zeroClocks(std::size_t count) {
    return std::vector<gpu::KeyframeClock>(count, gpu::KeyframeClock{});
}

}  // namespace

KeyframeStage::KeyframeStage(const VulkanContext& ctx, const SharedModel& model, const ColliderSet& colliders)
    : colliders_(colliders),
      trackCount_(static_cast<uint32_t>(model.keyframeTracks.size())),
      tracks_(makeStorageBuffer<gpu::KeyframeTrack>(ctx, model.keyframeTracks, "keyframes: tracks")),
      frames_(makeStorageBuffer<gpu::Keyframe>(ctx, model.keyframes, "keyframes: frames")),
      clocks_(makeStorageBuffer<gpu::KeyframeClock>(ctx, zeroClocks(model.keyframeTracks.size()),
                                                    "keyframes: clocks")),
      kernel_(std::make_unique<ComputeKernel>(ctx, "kinematic/keyframes.comp", sizeof(gpu::KeyframePush))) {}

KeyframeStage::~KeyframeStage() = default;

void KeyframeStage::declarePasses(StepPlan& plan) { pass_ = plan.declare(kPassName, StageKind::Predict, "world"); }

void KeyframeStage::recordSubstep(StepRecorder& rec, float h, uint32_t substep) const {
    gpu::KeyframePush push{};
    push.dt = h;
    push.trackCount = trackCount();
    // One invocation: parents before children (keyframes.comp).
    rec.run(pass_, *kernel_, {&tracks_, &frames_, &clocks_, &colliders_.colliders()}, 1, push, {substep});
}

void KeyframeStage::reset() {
    clocks_.uploadArray<gpu::KeyframeClock>(zeroClocks(trackCount()));
}

}  // namespace vksim
