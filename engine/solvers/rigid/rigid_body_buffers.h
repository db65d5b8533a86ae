#pragma once
// The bodies every rigid path reads (docs/physics.md §11): their body-frame
// constants, states, contact points, shapes and the pairs in their rounds,
// uploaded once from the model, with the counts and the loop bound of one
// body or pair (rigid_frame_items.h) the paths dispatch by.
#include <cstdint>
#include <vector>

#include "solvers/rigid/rigid_model.h"
#include "vk/buffer.h"

namespace vksim {

class VulkanContext;

class RigidBodyBuffers {
public:
    // Uploads nothing for a model without bodies. Throws
    // std::invalid_argument on a CPU device when a body has so many contact
    // points that one body or pair would outrun the driver's loop limit
    // against `sceneColliders` colliders (rigid_frame_items.h).
    RigidBodyBuffers(const VulkanContext& ctx, const RigidModel& model, uint32_t sceneColliders);

    uint32_t bodyCount() const { return bodyCount_; }
    bool empty() const { return bodyCount_ == 0; }
    uint32_t pairCount() const { return pairCount_; }
    // The first pair of each round, and the end (rigid_model.h).
    const std::vector<uint32_t>& roundStarts() const { return roundStarts_; }
    // rigidItemLoopBound of these bodies and the scene's colliders.
    uint64_t itemLoopBound() const { return itemLoopBound_; }

    const GpuBuffer& bodies() const { return bodies_; }
    const GpuBuffer& states() const { return states_; }
    const GpuBuffer& points() const { return points_; }
    const GpuBuffer& shapes() const { return shapes_; }
    const GpuBuffer& pairs() const { return pairs_; }

    // Back to the model's initial states (waits for the queue).
    void reset(const RigidModel& model);
    void addStateBuffers(std::vector<GpuBuffer*>& out) {
        if (!empty()) out.push_back(&states_);
    }

private:
    uint32_t bodyCount_ = 0;
    uint32_t pairCount_ = 0;
    std::vector<uint32_t> roundStarts_;
    uint64_t itemLoopBound_ = 0;
    GpuBuffer bodies_, states_, points_, shapes_, pairs_;
};

}  // namespace vksim
