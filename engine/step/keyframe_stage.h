#pragma once
// The kinematic colliders (docs/physics.md §17): colliders whose pose
// follows keyframes in the scene. At the start of every substep, before
// anything reads the colliders, one pass advances each track's clock by h
// and writes its collider's pose at the substep's end and the velocity the
// substep's motion implies into the collider set:
//
//   keyframes: colliders   every track in order, parents first (shaders/kinematic/keyframes.comp)
//
// The clocks live on the GPU (a frame's commands are recorded once and
// replayed), one per track, and are part of the saved state. Built only
// where some collider has keyframes (SharedModel::keyframeTracks).
#include <cstdint>
#include <memory>
#include <vector>

#include "model/shared_model.h"
#include "shaders/kinematic/keyframe_types.h"
#include "step/step_plan.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;
class ColliderSet;

class KeyframeStage {
public:
    static constexpr const char* kPassName = "keyframes: colliders";

    KeyframeStage(const VulkanContext& ctx, const SharedModel& model, const ColliderSet& colliders);
    ~KeyframeStage();

    uint32_t trackCount() const { return trackCount_; }
    void declarePasses(StepPlan& plan);
    // At the start of substep `substep` of length h: the colliders' poses at its end.
    void recordSubstep(StepRecorder& rec, float h, uint32_t substep) const;
    // The clocks back to 0 (waits for the queue).
    void reset();
    // What reset() restores, for World::saveState(): the clocks.
    void addStateBuffers(std::vector<GpuBuffer*>& out) { out.push_back(&clocks_); }
    const GpuBuffer& clocks() const { return clocks_; }

private:
    const ColliderSet& colliders_;
    uint32_t trackCount_ = 0;
    GpuBuffer tracks_, frames_, clocks_;
    std::unique_ptr<ComputeKernel> kernel_;
    uint32_t pass_ = 0;
};

}  // namespace vksim
