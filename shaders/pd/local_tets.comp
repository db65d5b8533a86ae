#version 460
// docs/physics.md §5, local step: tetrahedron strain (pc.mode = kPdTetStrain: clamp
// the singular values of F, reflections pushed back) or volume
// (kPdTetVolume: clamp det F by the iterative D update). F = sum_k q_k g_k^T;
// slot k gets w T g_k, the first slot's w the element's energy
// w/2 |F - T|_F^2 (pd_types.h).
#include "shared/kernel.glsl"
#include "pd/pd_types.h"
#include "math/svd3.glsl"
#include "pd/pd_projections.glsl"

layout(push_constant) uniform Push { PdElementPush pc; };
layout(std430, binding = 0) readonly buffer Q { vec4 q[]; };
layout(std430, binding = 1) readonly buffer Tets { PdTetrahedron tets[]; };
layout(std430, binding = 2) writeonly buffer Contributions { vec4 contributions[]; };

void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= pc.count) return;
    PdTetrahedron t = tets[e];
    vec3 g1 = t.g1.xyz;
    vec3 g2 = t.g2.xyz;
    vec3 g3 = t.g3.xyz;
    mat3 F = tetDeformationGradient(q[t.particles.x].xyz, q[t.particles.y].xyz, q[t.particles.z].xyz,
                                    q[t.particles.w].xyz, g1, g2, g3);
    mat3 T = pc.mode == kPdTetVolume ? pdTetVolumeTarget(F, t.rangeMin, t.rangeMax)
                                     : pdTetStrainTarget(F, t.rangeMin, t.rangeMax);
    uint slot = pc.slotBase + 4u * e;
    mat3 D = F - T;
    float energy = 0.5 * t.weight * (dot(D[0], D[0]) + dot(D[1], D[1]) + dot(D[2], D[2]));
    contributions[slot] = vec4(-t.weight * (T * (g1 + g2 + g3)), energy);
    contributions[slot + 1u] = vec4(t.weight * (T * g1), 0.0);
    contributions[slot + 2u] = vec4(t.weight * (T * g2), 0.0);
    contributions[slot + 3u] = vec4(t.weight * (T * g3), 0.0);
}
