#include "render/contact_lines.h"

#include <algorithm>

#include "contacts/contact_stage.h"
#include "state/particle_store.h"

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
    const ContactDetection& detection = contacts_.detection();
    gpu::ContactPush push{};
    push.count = contacts_.model().count();
    push.capacity = 2 * lines_;  // contactConstraintCount: the lines drawn
    kernel_.dispatch(cmd,
                     {&detection.totals(), &detection.constraints(), &contacts_.constraints().colours(),
                      &contacts_.particles(), &particles_.positions(), &vertices_, &drawCommand_},
                     std::max(lines_, 1u), push);
}

}  // namespace vksim
