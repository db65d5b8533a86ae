#version 460
// docs/physics.md §1, "Attachments to bodies and colliders": one solver
// range's particles attached to (or kept within a radius of) a point of a
// collider row's frame, on its working positions (relative to the range's
// origin), with the row as it is now: a body's entry follows the body every
// substep (and every PBD iteration), a moved collider its new pose. A body's
// row (Collider::linearVelocity.w = 1) takes back what the move did to the
// particle: it is summed into the particle's BodyPush as the collisions'
// pushes are (particle/collider_stages.glsl, recordBodyPush), and the
// two-way coupling gives it to the body in its fixed-order gather
// (rigid/particle_impulses.comp). One invocation per attachment; a particle
// has at most one, so no two invocations touch the same one.
#include "shared/kernel.glsl"
#include "particle/frame_attachment_types.h"

layout(push_constant) uniform Push { FrameAttachmentPush pc; };
layout(std430, binding = 0) buffer Working { vec4 working[]; };
layout(binding = 1) uniform usamplerBuffer colliderTexels;  // particle/collider_texels.glsl
#include "particle/collider_texels.glsl"
layout(std430, binding = 2) buffer BodyPushes { BodyPush bodyPushes[]; };
layout(std430, binding = 3) readonly buffer Attachments { FrameAttachment attachments[]; };
#include "math/quaternion.glsl"
#include "particle/frame_attachment_math.glsl"

void main() {
    if (gl_GlobalInvocationID.x >= pc.count) return;
    FrameAttachment a = attachments[pc.first + gl_GlobalInvocationID.x];
    uint i = a.particle;
    vec3 origin = vec3(pc.particles.originX, pc.particles.originY, pc.particles.originZ);
    Collider row = colliderFromOrigin(a.collider, origin);
    vec4 p = working[i];
    vec3 target = frameAttachmentTarget(row.position.xyz, row.rotation, a.local.xyz);
    vec3 move = frameAttachmentMove(p.xyz, target, a.local.w, a.stiffness);
    if (move == vec3(0.0)) return;
    working[i] = vec4(p.xyz + move, p.w);
    // A body's row: the push it gave, if the substep's record is this body's or none's yet.
    if (row.linearVelocity.w == 0.0) return;
    BodyPush record = bodyPushes[i];
    if (record.collider == kNoBodyPush) record.collider = a.collider;
    if (record.collider != a.collider) return;
    bodyPushes[i] = BodyPush(record.pushX + move.x, record.pushY + move.y, record.pushZ + move.z, record.collider);
}
