#include "state/collider_set.h"

#include <cstddef>
#include <stdexcept>

#include <fmt/format.h>

#include "model/shared_model.h"
#include "shaders/particle/collider_slot_types.h"
#include "vk/context.h"
#include "vk/barriers.h"

namespace vksim {
namespace {
// The shaders read a collider as six uvec4 texels in field order
// (shaders/particle/collider_texels.glsl).
static_assert(sizeof(gpu::Collider) == 6 * 16);
static_assert(offsetof(gpu::Collider, position) == 0 * 16);
static_assert(offsetof(gpu::Collider, rotation) == 1 * 16);
static_assert(offsetof(gpu::Collider, size) == 2 * 16);
static_assert(offsetof(gpu::Collider, type) == 3 * 16 && offsetof(gpu::Collider, thickness) == 3 * 16 + 4 &&
              offsetof(gpu::Collider, friction) == 3 * 16 + 8 && offsetof(gpu::Collider, restitution) == 3 * 16 + 12);
static_assert(offsetof(gpu::Collider, linearVelocity) == 4 * 16);
static_assert(offsetof(gpu::Collider, angularVelocity) == 5 * 16);
constexpr uint64_t kTexelsPerCollider = sizeof(gpu::Collider) / 16;
// A scene's colliders fit the 65,536 texels every device's
// maxTexelBufferElements allows; a batch's bodies are checked against the device.
static_assert(gpu::kMaxColliders * kTexelsPerCollider <= 65536);
// How many of `bodyCount` rigid bodies are colliders too: all of them when
// there are particles.
uint32_t bodyColliderCount(const SharedModel& model, uint32_t bodyCount) {
    return model.particleCount() > 0 ? bodyCount : 0u;
}

}  // namespace

ColliderSet::ColliderSet(const VulkanContext& ctx, const SharedModel& model,
                         std::span<const gpu::Collider> bodyShapes, uint32_t bodyCopies)
    : count_(static_cast<uint32_t>(model.colliders.size() +
                                   bodyColliderCount(model, static_cast<uint32_t>(bodyShapes.size())))),
      sceneCount_(static_cast<uint32_t>(model.colliders.size())) {
    const uint32_t bodyColliders = count_ - sceneCount_;
    if (bodyCopies == 0 || bodyColliders % bodyCopies != 0)
        throw std::logic_error(fmt::format("{} body colliders are not an equal number for each of {} copies",
                                           bodyColliders, bodyCopies));
    copyBodyCount_ = bodyColliders / bodyCopies;
    if (sceneCount_ + copyBodyCount_ > gpu::kMaxColliders)
        throw std::invalid_argument(fmt::format("{} colliders (with the rigid bodies); the GPU path supports {}",
                                                sceneCount_ + copyBodyCount_, gpu::kMaxColliders));
    const uint64_t texels = uint64_t{count_} * kTexelsPerCollider;
    const uint64_t texelLimit = ctx.properties().limits.maxTexelBufferElements;
    if (texels > texelLimit)
        throw std::invalid_argument(fmt::format(
            "{} colliders ({} of the scene, {} bodies in each of {} copies) need {} texels; the device reads at "
            "most {} (maxTexelBufferElements)",
            count_, sceneCount_, copyBodyCount_, bodyCopies, texels, texelLimit));
    // The bodies' entries are written by the GPU before anything reads them.
    std::vector<gpu::Collider> all = model.colliders;
    all.resize(count_, gpu::Collider{});
    // Written as a storage buffer (live edits, the bodies' colliders, the
    // kinematic colliders' poses), read as texels, and by the renderer as
    // the kinematic colliders' instance transforms.
    colliders_ = makeStorageBuffer<gpu::Collider>(
        ctx, all, "colliders", VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    meshSdfGrids_ = makeStorageBuffer<float>(ctx, model.meshSdfGrids, "mesh collider SDF grids");
    for (const gpu::Collider& c : model.colliders) shapes_ |= 1u << c.type;
    for (const gpu::Collider& s : bodyShapes) shapes_ |= 1u << s.type;
}

std::array<SpecializationConstant, 3> ColliderSet::particleSpecialization() const {
    return {SpecializationConstant{gpu::kColliderShapesConstantId, shapes_},
            SpecializationConstant{gpu::kSceneCollidersConstantId, sceneCount_},
            SpecializationConstant{gpu::kCopyBodyCollidersConstantId, copyBodyCount_}};
}

void ColliderSet::set(const std::vector<gpu::Collider>& colliders) {
    if (colliders.size() != sceneCount_) throw std::invalid_argument("collider count cannot change at run time");
    for (const gpu::Collider& c : colliders)
        if (c.type >= 32 || (shapes_ & (1u << c.type)) == 0)
            throw std::invalid_argument(fmt::format(
                "a collider cannot take shape {} at run time: the world's kernels were built for its shapes", c.type));
    pending_ = colliders;
}

void ColliderSet::recordPendingUpdate(VkCommandBuffer cmd) {
    computeToTransferWriteBarrier(cmd);
    if (!pending_->empty())
        vkCmdUpdateBuffer(cmd, colliders_.handle(), 0, pending_->size() * sizeof(gpu::Collider), pending_->data());
    transferWriteToComputeBarrier(cmd);
    pending_.reset();
}

}  // namespace vksim
