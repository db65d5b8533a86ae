#include "render/anchor_lines.h"

#include <algorithm>
#include <vector>

#include "shaders/render/anchor_line_types.h"
#include "solvers/sim_model.h"
#include "state/particle_store.h"

namespace vksim {
namespace {

std::vector<gpu::AnchorLine> anchorLines(const SimModel& model) {
    std::vector<gpu::AnchorLine> lines;
    for (const gpu::AttachmentConstraint& a : model.pbd.attachments)
        lines.push_back({glm::vec4(glm::vec3(a.target), a.maxDistance), a.particle, gpu::kAnchorInWorld, 0, 0});
    for (const gpu::SolvedTether& t : model.solvedTethers)
        lines.push_back({t.anchor, t.particle, gpu::kAnchorInWorld, 0, 0});
    for (const gpu::FrameAttachment& a : model.frameAttachments) lines.push_back({a.local, a.particle, a.collider, 0, 0});
    return lines;
}

}  // namespace

bool AnchorLines::anyIn(const SimModel& model) {
    return !model.pbd.attachments.empty() || !model.solvedTethers.empty() || !model.frameAttachments.empty();
}

AnchorLines::AnchorLines(const VulkanContext& ctx, const SimModel& model, const ParticleStore& particles,
                         const GpuBuffer& colliderRows)
    : particles_(particles),
      colliderRows_(colliderRows),
      kernel_(ctx, "render/anchor_lines.comp", sizeof(gpu::AnchorLinesPush)) {
    std::vector<gpu::AnchorLine> lines = anchorLines(model);
    lineCount_ = static_cast<uint32_t>(lines.size());
    if (lines.empty()) lines.push_back({});  // a buffer of no size cannot be made
    lines_ = makeStorageBuffer<gpu::AnchorLine>(ctx, lines, "anchor lines");
    vertices_ = GpuBuffer(ctx, std::max<VkDeviceSize>(16, VkDeviceSize{lineCount_} * 2 * sizeof(glm::vec4)),
                          VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                          MemoryKind::DeviceLocal, "anchor line vertices");
}

void AnchorLines::record(VkCommandBuffer cmd) {
    const gpu::AnchorLinesPush push{lineCount_, 0, 0, 0};
    kernel_.dispatch(cmd, {&particles_.positions(), &lines_, &vertices_, &colliderRows_}, lineCount_, push);
}

}  // namespace vksim
