#include "render/contact_lines.h"

#include <algorithm>

#include "contacts/contact_stage.h"
#include "state/particle_store.h"
#include "vk/barriers.h"

namespace vksim {

ContactLines::ContactLines(const VulkanContext& ctx, const ContactStage& contacts, const ParticleStore& particles)
    : contacts_(contacts),
      particles_(particles),
      lines_(std::min(contacts.model().capacity / 2, kMaxLines)),
      vertices_(ctx, std::max<VkDeviceSize>(16, VkDeviceSize{lines_} * 2 * sizeof(glm::vec4)),
                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, MemoryKind::DeviceLocal,
                "contact lines"),
      drawCommand_(ctx, sizeof(VkDrawIndirectCommand),
                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, MemoryKind::DeviceLocal,
                   "contact lines draw"),
      kernel_(ctx, "render/contact_lines.comp", sizeof(gpu::ContactPush)) {}

void ContactLines::record(VkCommandBuffer cmd) {
    // The last draw's vertex and parameter reads finish before this pass
    // rewrites them (nothing else orders them while the simulation is
    // paused), and the simulation's writes are visible to it.
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                  VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_NONE);
    computeToComputeBarrier(cmd);
    const ContactDetection& detection = contacts_.detection();
    gpu::ContactPush push{};
    push.count = contacts_.model().count();
    push.capacity = 2 * lines_;  // contactConstraintCount: the lines drawn
    kernel_.dispatch(cmd,
                     {&detection.totals(), &detection.constraints(), &detection.colours(), &contacts_.particles(),
                      &particles_.positions(), &vertices_, &drawCommand_},
                     std::max(lines_, 1u), push);
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                  VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
    // Its reads finish before the next frame's passes write positions and lists.
    computeToComputeBarrier(cmd);
}

}  // namespace vksim
