#version 460
// docs/physics.md §5, local step: attachments (soft pins) as closeness constraints,
// A S q = q_i, p = target; the slot gets w target, and in w the element's
// energy w/2 |q_i - target|^2 (pd_types.h).
#include "shared/kernel.glsl"
#include "pd/pd_types.h"

layout(push_constant) uniform Push { PdElementPush pc; };
layout(std430, binding = 0) readonly buffer Q { vec4 q[]; };
layout(std430, binding = 1) readonly buffer Attachments { PdAttachment attachments[]; };
layout(std430, binding = 2) writeonly buffer Contributions { vec4 contributions[]; };

void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= pc.count) return;
    PdAttachment a = attachments[e];
    vec3 d = q[a.particle].xyz - a.target.xyz;
    contributions[pc.slotBase + e] = vec4(a.weight * a.target.xyz, 0.5 * a.weight * dot(d, d));
}
