#pragma once
// The colliders of a world, held once: one buffer of gpu::Collider that
// every collision stage of every solver reads, and the baked SDF grids of
// the mesh colliders and mesh bodies. The scene's colliders come first;
// whatever moves one (the viewer, the API) writes its new transform and
// velocity here, recorded at the start of the next frame without a wait.
// When the scene has particles and rigid bodies, each body follows as a
// collider of its own, written on the GPU from the body's state every
// frame (RigidSolver::recordColliders): cloth meets bodies as it meets
// colliders. In a batch the bodies follow copy by copy, and a particle
// meets the scene's colliders and its own copy's bodies only
// (shaders/particle/collider_slots.glsl): a copy's colliders fit the 32
// bits of a particle's masks as its world alone does, whatever the count.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <volk.h>

#include "shaders/shared/sim_types.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;
struct SharedModel;

class ColliderSet {
public:
    // `bodyShapes`: each rigid body's shape in its body frame (RigidModel::shapes).
    // `bodyCopies`: the batch copies the bodies belong to, an equal number
    // each, copy after copy (RigidModel::copyCount; 1 in a scene's world).
    // Throws std::invalid_argument where a copy sees more than
    // gpu::kMaxColliders colliders or the list passes the device's texel limit.
    ColliderSet(const VulkanContext& ctx, const SharedModel& model, std::span<const gpu::Collider> bodyShapes,
                uint32_t bodyCopies);

    // Every collider the particle stages test: the scene's, then the bodies'.
    uint32_t count() const { return count_; }
    // The scene's colliders [0, sceneCount()); the rigid bodies test only these.
    uint32_t sceneCount() const { return sceneCount_; }
    // The bodies that are colliders of one copy's particles.
    uint32_t copyBodyCount() const { return copyBodyCount_; }
    const GpuBuffer& colliders() const { return colliders_; }
    const GpuBuffer& meshSdfGrids() const { return meshSdfGrids_; }
    // Bit t: a scene collider or a rigid body has shape t (gpu::kCollider*).
    uint32_t shapes() const { return shapes_; }
    // What the kernels that evaluate SDFs are specialized with: the shapes
    // above, so that the others compile away (math/sdf.glsl says why).
    SpecializationConstant shapeSpecialization() const { return {gpu::kColliderShapesConstantId, shapes_}; }
    // What the kernels that test particles against the colliders are
    // specialized with: the shapes, and which colliders a particle sees
    // (particle/collider_slots.glsl).
    std::array<SpecializationConstant, 3> particleSpecialization() const;

    // The new state of every scene collider (neither the count nor a shape
    // can change), recorded into the next recordPendingUpdate: no wait.
    // Throws std::invalid_argument for another count or a shape the world
    // did not have.
    void set(const std::vector<gpu::Collider>& colliders);

    // Whether a set() waits for recordPendingUpdate.
    bool updatePending() const { return pending_.has_value(); }
    // At the start of a frame: a pending set() is written into `cmd` between
    // barriers that order it after the previous frames' reads and before this
    // frame's. The caller records it as one-time work, and only when
    // updatePending().
    void recordPendingUpdate(VkCommandBuffer cmd);

private:
    uint32_t count_ = 0;
    uint32_t sceneCount_ = 0;
    uint32_t copyBodyCount_ = 0;
    uint32_t shapes_ = 0;
    GpuBuffer colliders_, meshSdfGrids_;
    std::optional<std::vector<gpu::Collider>> pending_;
};

}  // namespace vksim
