#version 460
// docs/physics.md §5, local step: edge springs. p = the edge q0 - q1 rescaled to its
// rest length; slots w p (for p0) and -w p (for p1): S^T A^T p with A S q = q0 - q1.
// The first slot's w holds the element's energy w/2 |A S q - p|^2 (pd_types.h).
#include "shared/kernel.glsl"
#include "pd/pd_types.h"
#include "math/svd3.glsl"
#include "pd/pd_projections.glsl"

layout(push_constant) uniform Push { PdElementPush pc; };
layout(std430, binding = 0) readonly buffer Q { vec4 q[]; };
layout(std430, binding = 1) readonly buffer Springs { PdSpring springs[]; };
layout(std430, binding = 2) writeonly buffer Contributions { vec4 contributions[]; };

void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= pc.count) return;
    PdSpring s = springs[e];
    vec3 edge = q[s.p0].xyz - q[s.p1].xyz;
    vec3 p = pdSpringTarget(edge, s.restLength);
    vec3 d = edge - p;
    uint slot = pc.slotBase + 2u * e;
    contributions[slot] = vec4(s.weight * p, 0.5 * s.weight * dot(d, d));
    contributions[slot + 1u] = vec4(-s.weight * p, 0.0);
}
