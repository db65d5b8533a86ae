#include "render/wind_lines.h"

#include <algorithm>

#include "shaders/particle/wind_types.h"
#include "state/particle_store.h"
#include "step/wind_stage.h"

namespace vksim {

WindLines::WindLines(const VulkanContext& ctx, const WindStage& wind, const ParticleStore& particles)
    : wind_(wind),
      particles_(particles),
      particleCount_(particles.particleCount()),
      vertices_(ctx, std::max<VkDeviceSize>(16, VkDeviceSize{particleCount_} * 2 * sizeof(glm::vec4)),
                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, MemoryKind::DeviceLocal,
                "wind lines"),
      kernel_(ctx, "render/wind_lines.comp", sizeof(gpu::WindLinesPush)) {}

void WindLines::record(VkCommandBuffer cmd) {
    const gpu::WindLinesPush push{particleCount_, kSeconds, 0, 0};
    kernel_.dispatch(cmd, {&particles_.positions(), &wind_.particleAeroBuffer(), &wind_.airVelocities(), &vertices_},
                     std::max(particleCount_, 1u), push);
}

}  // namespace vksim
