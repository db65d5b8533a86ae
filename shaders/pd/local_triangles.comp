#version 460
// docs/physics.md §5, local step: triangle strain. F = sum_k q_k g_k^T (3x2),
// T = U clamp(S, sigmaMin, sigmaMax) V^T; slot k gets w T g_k, the first
// slot's w the element's energy w/2 |F - T|_F^2 (pd_types.h).
#include "shared/kernel.glsl"
#include "pd/pd_types.h"
#include "math/svd3.glsl"
#include "pd/pd_projections.glsl"

layout(push_constant) uniform Push { PdElementPush pc; };
layout(std430, binding = 0) readonly buffer Q { vec4 q[]; };
layout(std430, binding = 1) readonly buffer Triangles { PdTriangle triangles[]; };
layout(std430, binding = 2) writeonly buffer Contributions { vec4 contributions[]; };

void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= pc.count) return;
    PdTriangle t = triangles[e];
    vec2 g1 = t.gradients.xy;
    vec2 g2 = t.gradients.zw;
    vec2 g0 = -(g1 + g2);
    Columns32 F = triangleDeformationGradient(q[t.particles.x].xyz, q[t.particles.y].xyz, q[t.particles.z].xyz,
                                              g1, g2);
    Columns32 T = pdTriangleStrainTarget(F, t.sigmaMin, t.sigmaMax);
    uint slot = pc.slotBase + 3u * e;
    vec3 d0 = F.c0 - T.c0;
    vec3 d1 = F.c1 - T.c1;
    contributions[slot] = vec4(t.weight * (T.c0 * g0.x + T.c1 * g0.y), 0.5 * t.weight * (dot(d0, d0) + dot(d1, d1)));
    contributions[slot + 1u] = vec4(t.weight * (T.c0 * g1.x + T.c1 * g1.y), 0.0);
    contributions[slot + 2u] = vec4(t.weight * (T.c0 * g2.x + T.c1 * g2.y), 0.0);
}
