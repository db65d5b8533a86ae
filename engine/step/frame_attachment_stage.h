#pragma once
// Attachments of cloth particles to points of rigid bodies and colliders,
// and motion constraints about them (docs/physics.md §1, "Attachments to
// bodies and colliders"). One pass over a solver range's attachments:
//
//   <prefix>attachments to bodies   each attached particle moved onto its point of a collider
//                                   row (or back within its radius), the row read as it is now; a
//                                   body's row gets the move back through the two-way coupling
//
// A solver whose iterations project the collisions (PBD) records it in every
// iteration, after the collisions and before the coupling's exchange, so the
// body feels the cloth's pull iteration by iteration; the others once per
// substep, after their solve and collision projection, before the velocity
// update (the exchange at the substep's end gives the body its share).
// Built only where some cloth has such attachments.
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "model/shared_model.h"
#include "state/particle_range.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"

namespace vksim {

class ColliderSet;
class ComputeKernel;
class ParticleStore;
class VulkanContext;

class FrameAttachmentStage {
public:
    FrameAttachmentStage(const VulkanContext& ctx, const SharedModel& model, const ParticleStore& particles,
                         const ColliderSet& colliders);
    ~FrameAttachmentStage();

    // The attachments of the particles of `range`: [first, first + count) of the list.
    using Slice = ListSlice;
    Slice sliceOf(ParticleRange range) const { return vksim::sliceOf(particleOf_, range); }

    // The pass of one solver's attachments ("pbd: attachments to bodies").
    static uint32_t declare(StepPlan& plan, std::string_view prefix, std::string_view owner);
    // `working`: the range's working positions (relative to push's origin),
    // probed as `workingName`.
    void record(StepRecorder& rec, uint32_t pass, const gpu::ParticlePush& push, Slice slice, const GpuBuffer& working,
                std::string_view workingName, StepPosition at) const;

private:
    const ParticleStore& particles_;
    const ColliderSet& colliders_;
    std::vector<uint32_t> particleOf_;  // each attachment's particle, ascending
    GpuBuffer attachments_;
    std::unique_ptr<ComputeKernel> kernel_;
};

// One solver's attachments and the pass that projects them; what a solver
// whose iterations project them records (SubstepContext::attachments).
struct FrameAttachmentPass {
    const FrameAttachmentStage* stage = nullptr;
    FrameAttachmentStage::Slice slice{};
    uint32_t pass = 0;

    bool any() const { return stage != nullptr && slice.count > 0; }
};

}  // namespace vksim
