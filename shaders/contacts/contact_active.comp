#version 460
// Contact response by the Jacobi average, pass 1 of each iteration, one
// thread per contact particle: how many of the constraints of its
// incidence list (contact_incidence.comp: its pairs, then its
// four-particle constraints) push now, the average's divisor. With
// leftoverOnly, only over those the colouring left out, and only for the
// particles of those (the leftover list, contact_leftover_list.comp).
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_response.glsl"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 1) readonly buffer Predicted { vec4 p[]; };
layout(std430, binding = 2) readonly buffer Particles { ContactParticle particles[]; };
layout(std430, binding = 3) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 4) readonly buffer Constraints { uvec2 constraints[]; };
layout(std430, binding = 5) readonly buffer TriangleContacts { TriangleContact triangleContacts[]; };
layout(std430, binding = 6) readonly buffer IncidenceStart { uint incidenceStart[]; };
layout(std430, binding = 7) readonly buffer IncidenceCount { uint incidenceCount[]; };
layout(std430, binding = 8) readonly buffer Incidence { uint incidence[]; };
layout(std430, binding = 9) readonly buffer Colours { uint colours[]; };
layout(std430, binding = 10) writeonly buffer Active { uint touchingCounts[]; };
layout(std430, binding = 11) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 12) readonly buffer ColourTable { ContactColourTable table; };
layout(std430, binding = 13) readonly buffer LeftoverParticles { uint leftoverParticles[]; };
#include "contacts/triangle_response.glsl"

void countTouching(uint k) {
    ContactParticle a = particles[k];
    vec4 pk = p[a.particle];
    vec3 xk = x[a.particle].xyz;
    uint pairCount = contactConstraintCount(totals[2], pc.capacity);
    uint start = incidenceStart[k];
    uint touching = 0u;
    for (uint e = start; e < start + incidenceCount[k]; ++e) {
        uint c = incidence[e] / 4u;
        if (pc.leftoverOnly != 0u && colours[c] < kContactColours) continue;
        if (c < pairCount) {
            uvec2 pair = constraints[c];
            ContactParticle b = particles[pair.x == k ? pair.y : pair.x];
            if (!contactInPass(a, b, pc.pairs)) continue;
            if (contactActive(pk, p[b.particle], xk, x[b.particle].xyz, a.rest.w + b.rest.w)) ++touching;
        } else {
            uvec4 q = triangleParticles(c - pairCount);
            if (!triangleInPass(q, pc.pairs)) continue;
            if (triangleActive(triangleState(c - pairCount, q))) ++touching;
        }
    }
    touchingCounts[k] = touching;
}

void main() {
    if (pc.leftoverOnly == 0u) {
        if (gl_GlobalInvocationID.x < pc.count) countTouching(gl_GlobalInvocationID.x);
        return;
    }
    for (uint i = gl_GlobalInvocationID.x; i < table.leftoverParticles;
         i += dispatches[kLeftoverParticlesDispatch].threads)
        countTouching(leftoverParticles[i]);
}
