#version 460
// docs/physics.md §5, local step: bending. v_f = sum_k K_k q_k (the isometric bending
// stencil), p = v_f |v_g| / |v_f|; slot k gets w K_k p, the first slot's w
// the element's energy w/2 |v_f - p|^2 (pd_types.h).
#include "shared/kernel.glsl"
#include "pd/pd_types.h"
#include "math/svd3.glsl"
#include "pd/pd_projections.glsl"

layout(push_constant) uniform Push { PdElementPush pc; };
layout(std430, binding = 0) readonly buffer Q { vec4 q[]; };
layout(std430, binding = 1) readonly buffer Bending { PdBending bending[]; };
layout(std430, binding = 2) writeonly buffer Contributions { vec4 contributions[]; };

void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= pc.count) return;
    PdBending b = bending[e];
    vec3 vf = b.K.x * q[b.particles.x].xyz + b.K.y * q[b.particles.y].xyz + b.K.z * q[b.particles.z].xyz +
              b.K.w * q[b.particles.w].xyz;
    vec3 target = pdBendingTarget(vf, b.restNorm);
    vec3 d = vf - target;
    vec3 p = b.weight * target;
    uint slot = pc.slotBase + 4u * e;
    contributions[slot] = vec4(b.K.x * p, 0.5 * b.weight * dot(d, d));
    contributions[slot + 1u] = vec4(b.K.y * p, 0.0);
    contributions[slot + 2u] = vec4(b.K.z * p, 0.0);
    contributions[slot + 3u] = vec4(b.K.w * p, 0.0);
}
