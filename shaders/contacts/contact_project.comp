#version 460
// Contact response by the Jacobi average, pass 2 of each iteration
// (with leftoverOnly, over the constraints the colouring left out): each particle's
// correction, summed over its touching neighbours in list order, each pair
// weighted by 1 / max(active_k, active_l): the same weight on both sides,
// so momentum is kept, and no particle moves by more than the average of
// its corrections (Macklin et al. 2014, §4.2, averaged per pair).
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_response.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 1) readonly buffer Predicted { vec4 p[]; };
layout(std430, binding = 2) readonly buffer Particles { ContactParticle particles[]; };
layout(std430, binding = 3) readonly buffer Counts { uint counts[]; };
layout(std430, binding = 4) readonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 5) readonly buffer Neighbours { uint neighbours[]; };
layout(std430, binding = 6) readonly buffer Active { uint touchingCounts[]; };
layout(std430, binding = 7) writeonly buffer Corrections { vec4 corrections[]; };
layout(std430, binding = 8) readonly buffer ConstraintOf { uint constraintOf[]; };
layout(std430, binding = 9) readonly buffer Colours { uint colours[]; };

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count) return;
    ContactParticle a = particles[k];
    vec4 pk = p[a.particle];
    vec3 xk = x[a.particle].xyz;
    vec3 sum = vec3(0.0);
    uint first = offsets[k];
    if (pk.w > 0.0)
        for (uint e = first; e < first + contactEntries(counts[k], first, pc.capacity); ++e) {
            if (pc.leftoverOnly != 0u && contactColoured(constraintOf[e])) continue;
            uint l = neighbours[e];
            ContactParticle b = particles[l];
            if (!contactInPass(a, b, pc.pairs)) continue;
            vec4 pl = p[b.particle];
            vec3 xl = x[b.particle].xyz;
            if (!contactActive(pk, pl, xk, xl, a.rest.w + b.rest.w)) continue;
            float weight = 1.0 / float(max(touchingCounts[k], touchingCounts[l]));
            sum += weight * contactCorrection(a, b, k, l, pk, pl, xk, xl);
        }
    corrections[k] = vec4(sum, 0.0);
}
