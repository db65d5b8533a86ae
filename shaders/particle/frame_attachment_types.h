// Cloth particles attached to a point of a rigid body or a collider, or kept
// within a radius of it (motion constraints; docs/physics.md §1,
// "Attachments to bodies and colliders"), shared by GLSL and C++.
#ifndef VKSIM_FRAME_ATTACHMENT_TYPES_H
#define VKSIM_FRAME_ATTACHMENT_TYPES_H
#include "shaders/shared/sim_types.h"

GPU_NAMESPACE_BEGIN

// One attached particle. The point is fixed in the frame of a row of the
// world's collider set (a scene collider, or a body's entry after them),
// which the pass reads at the time it projects: the row's position and
// rotation place it.
struct FrameAttachment {
    vec4 local;       // xyz: the point in the collider row's frame [m]; w: the largest distance from it [m] (0: on it)
    uint particle;    // global
    uint collider;    // the row of the collider set
    float stiffness;  // in (0, 1]: the fraction of the violation a projection removes
    uint pad0;
};
GPU_CHECK_SIZE(FrameAttachment, 32);

// One solver range's attachments, [first, first + count) of the list; the
// range's push for its origin.
struct FrameAttachmentPush {
    ParticlePush particles;
    uint first;
    uint count;
    uint pad0;
    uint pad1;
};
GPU_CHECK_SIZE(FrameAttachmentPush, 96);

GPU_NAMESPACE_END

#endif
