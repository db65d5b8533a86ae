#pragma once
// The colliders of a world, held once: one buffer of gpu::Collider that
// every collision stage of every solver reads, and the baked SDF grids of
// the mesh colliders. Whatever moves a collider (the viewer, the API, later
// a rigid body) writes its new transform and velocity here; the change is
// recorded at the start of the next frame, without a wait.
#include <cstdint>
#include <optional>
#include <vector>

#include <volk.h>

#include "shared/sim_types.h"
#include "vk/buffer.h"

namespace vksim {

class VulkanContext;
struct SimModel;

class ColliderSet {
public:
    ColliderSet(const VulkanContext& ctx, const SimModel& model);

    uint32_t count() const { return count_; }
    const GpuBuffer& colliders() const { return colliders_; }
    const GpuBuffer& meshSdfGrids() const { return meshSdfGrids_; }

    // The new state of every collider (the count cannot change), recorded
    // into the next recordPendingUpdate: no wait. Throws std::invalid_argument
    // for another count.
    void set(const std::vector<gpu::Collider>& colliders);

    // At the start of a frame: a pending set() is written between barriers
    // that order it after the previous frames' reads and before this frame's.
    // Records nothing when nothing is pending.
    void recordPendingUpdate(VkCommandBuffer cmd);

private:
    uint32_t count_ = 0;
    GpuBuffer colliders_, meshSdfGrids_;
    std::optional<std::vector<gpu::Collider>> pending_;
};

}  // namespace vksim
