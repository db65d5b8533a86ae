#version 460
// Contact response by the Jacobi average, pass 1 of each iteration: how
// many of each particle's neighbours it touches now (the average's
// divisor). With leftoverOnly, only over the constraints the colouring left
// out (an entry whose constraint did not fit the list is left alone).
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
layout(std430, binding = 6) writeonly buffer Active { uint touchingCounts[]; };
layout(std430, binding = 7) readonly buffer ConstraintOf { uint constraintOf[]; };
layout(std430, binding = 8) readonly buffer Colours { uint colours[]; };

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count) return;
    ContactParticle a = particles[k];
    vec4 pk = p[a.particle];
    vec3 xk = x[a.particle].xyz;
    uint first = offsets[k];
    uint touching = 0u;
    for (uint e = first; e < first + contactEntries(counts[k], first, pc.capacity); ++e) {
        if (pc.leftoverOnly != 0u && contactColoured(constraintOf[e])) continue;
        ContactParticle b = particles[neighbours[e]];
        if (!contactInPass(a, b, pc.pairs)) continue;
        if (contactActive(pk, p[b.particle], xk, x[b.particle].xyz, a.rest.w + b.rest.w)) ++touching;
    }
    touchingCounts[k] = touching;
}
