#include "world/collider_set.h"

#include <stdexcept>

#include <fmt/format.h>

#include "sim/sim_model.h"
#include "vk/barriers.h"

namespace vksim {

ColliderSet::ColliderSet(const VulkanContext& ctx, const SimModel& model)
    : count_(static_cast<uint32_t>(model.colliders.size())) {
    if (model.colliders.size() > gpu::kMaxColliders)
        throw std::invalid_argument(fmt::format("{} colliders; the GPU path supports {}", model.colliders.size(),
                                                gpu::kMaxColliders));
    colliders_ = makeStorageBuffer<gpu::Collider>(ctx, model.colliders, "colliders");
    meshSdfGrids_ = makeStorageBuffer<float>(ctx, model.meshSdfGrids, "mesh collider SDF grids");
}

void ColliderSet::set(const std::vector<gpu::Collider>& colliders) {
    if (colliders.size() != count_) throw std::invalid_argument("collider count cannot change at run time");
    pending_ = colliders;
}

void ColliderSet::recordPendingUpdate(VkCommandBuffer cmd) {
    if (!pending_) return;
    computeToTransferWriteBarrier(cmd);
    if (!pending_->empty())
        vkCmdUpdateBuffer(cmd, colliders_.handle(), 0, pending_->size() * sizeof(gpu::Collider), pending_->data());
    transferWriteToComputeBarrier(cmd);
    pending_.reset();
}

}  // namespace vksim
