#pragma once
// The cloths' attachments to bodies and colliders (docs/physics.md §1,
// "Attachments to bodies and colliders") as the list the attachment pass
// reads (step/frame_attachment_stage.h): each attached vertex's particle,
// the collider row it follows and its rest position in that row's frame.
#include <span>

#include "model/shared_model.h"
#include "scene/scene.h"

namespace vksim {

// `rows`: the collider set's rows as the world starts, the scene's colliders
// then one per body (the body's shape at its initial pose); model.objects
// must hold the cloths. Appends to model.frameAttachments, by particle.
void appendFrameAttachments(const Scene& scene, std::span<const gpu::Collider> rows, SharedModel& model);

}  // namespace vksim
