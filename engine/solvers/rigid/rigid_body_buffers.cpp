#include "solvers/rigid/rigid_body_buffers.h"

#include <stdexcept>

#include <fmt/format.h>
#include <glm/glm.hpp>

#include "solvers/rigid/rigid_frame_items.h"
#include "vk/context.h"

namespace vksim {

RigidBodyBuffers::RigidBodyBuffers(const VulkanContext& ctx, const RigidModel& model, uint32_t sceneColliders)
    : bodyCount_(model.bodyCount()),
      pairCount_(static_cast<uint32_t>(model.pairs.size())),
      roundStarts_(model.roundStarts) {
    if (empty()) return;
    uint32_t widest = 0;  // the body with the most contact points
    for (uint32_t b = 1; b < bodyCount_; ++b)
        if (model.bodies[b].pointCount > model.bodies[widest].pointCount) widest = b;
    itemLoopBound_ = rigidItemLoopBound(model.bodies[widest].pointCount, sceneColliders);
    // Past the budget a lone item would be cut short on a CPU driver
    // (rigid_frame_items.h); a GPU has no such limiter.
    const bool cpuDevice = ctx.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    if (cpuDevice && itemLoopBound_ > kRigidDispatchLoopBudget)
        throw std::invalid_argument(fmt::format(
            "body \"{}\": {} contact points against {} colliders need up to {} loop passes in one workgroup, more "
            "than a CPU Vulkan driver (lavapipe) runs in one shader invocation ({}); use fewer points",
            model.names[widest], model.bodies[widest].pointCount, sceneColliders, itemLoopBound_,
            kRigidDispatchLoopBudget));
    bodies_ = makeStorageBuffer<gpu::RigidBody>(ctx, model.bodies, "rigid bodies");
    states_ = makeStorageBuffer<gpu::RigidBodyState>(ctx, model.states, "rigid body states",
                                                     VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    points_ = makeStorageBuffer<glm::vec4>(ctx, model.points, "rigid contact points");
    shapes_ = makeStorageBuffer<gpu::Collider>(ctx, model.shapes, "rigid body shapes");
    pairs_ = makeStorageBuffer<glm::uvec2>(ctx, model.pairs, "rigid body pairs");
}

void RigidBodyBuffers::reset(const RigidModel& model) {
    if (!empty()) states_.uploadArray<gpu::RigidBodyState>(model.states);
}

}  // namespace vksim
