#version 460
// SPEC.md 5, local step: attachments (soft pins) as closeness constraints,
// A S q = q_i, p = target; the slot gets w target.
#include "common/pbd_header.glsl"
#include "shared/pd_types.h"

layout(push_constant) uniform Push { PdElementPush pc; };
layout(std430, binding = 0) readonly buffer Attachments { PdAttachment attachments[]; };
layout(std430, binding = 1) writeonly buffer Contributions { vec4 contributions[]; };

void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= pc.count) return;
    PdAttachment a = attachments[e];
    contributions[pc.slotBase + e] = vec4(a.weight * a.target.xyz, 0.0);
}
