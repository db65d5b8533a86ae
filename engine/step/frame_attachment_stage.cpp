#include "step/frame_attachment_stage.h"

#include <algorithm>
#include <string>

#include "shaders/particle/frame_attachment_types.h"
#include "state/collider_set.h"
#include "state/particle_store.h"
#include "vk/compute_kernel.h"
#include "vk/context.h"

namespace vksim {

FrameAttachmentStage::FrameAttachmentStage(const VulkanContext& ctx, const SharedModel& model,
                                           const ParticleStore& particles, const ColliderSet& colliders)
    : particles_(particles),
      colliders_(colliders),
      attachments_(makeStorageBuffer<gpu::FrameAttachment>(ctx, model.frameAttachments, "attachments to bodies")),
      kernel_(std::make_unique<ComputeKernel>(ctx, "particle/project_frame_attachments.comp",
                                              sizeof(gpu::FrameAttachmentPush))) {
    for (const gpu::FrameAttachment& a : model.frameAttachments) particleOf_.push_back(a.particle);
}

FrameAttachmentStage::~FrameAttachmentStage() = default;

uint32_t FrameAttachmentStage::declare(StepPlan& plan, std::string_view prefix, std::string_view owner) {
    return plan.declare(std::string(prefix) + "attachments to bodies", StageKind::Solve, std::string(owner));
}

void FrameAttachmentStage::record(StepRecorder& rec, uint32_t pass, const gpu::ParticlePush& push, Slice slice,
                                  const GpuBuffer& working, std::string_view workingName, StepPosition at) const {
    const gpu::FrameAttachmentPush attachPush{push, slice.first, slice.count, 0, 0};
    rec.run(pass, *kernel_, {&working, &colliders_.colliders(), &particles_.bodyPushes(), &attachments_}, slice.count,
            attachPush, at, {&working, workingName});
}

}  // namespace vksim
