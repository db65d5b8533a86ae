#version 460
// Vertex-triangle colouring, one round of Jones-Plassmann over their
// constraints, as contact_colour.comp does over the pairs': a constraint
// conflicts with every constraint that shares any of its four particles,
// found in those particles' incidence lists. The priority hashes the vertex
// and the triangle, so the same contact keeps it from substep to substep;
// a round reads only what earlier rounds wrote, so the colours are the same
// whatever order the GPU runs in.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "math/real_glsl.h"
#include "contacts/contact_math.glsl"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 1) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 2) readonly buffer TriangleContacts { TriangleContact triangleContacts[]; };
layout(std430, binding = 3) readonly buffer Triangles { ContactTriangle triangles[]; };
layout(std430, binding = 4) readonly buffer IncidenceStart { uint incidenceStart[]; };
layout(std430, binding = 5) readonly buffer IncidenceFill { uint incidenceCount[]; };
layout(std430, binding = 6) readonly buffer Incidence { uint incidence[]; };
layout(std430, binding = 7) buffer Colours { uint colours[]; };
layout(std430, binding = 8) buffer Rounds { uint rounds[]; };

uint priority(uint c) { return contactPairHash(triangleContacts[c].vertex, triangleContacts[c].triangle); }

// Whether constraint c beats constraint d (ties, rare, by index).
bool beats(uint c, uint hc, uint d) {
    uint hd = priority(d);
    return hc > hd || (hc == hd && c > d);
}

void colour(uint c) {
    if (rounds[c] != kNoColour) return;
    TriangleContact contact = triangleContacts[c];
    ContactTriangle t = triangles[contact.triangle];
    uvec4 k = uvec4(contact.vertex, t.a, t.b, t.c);
    uint hc = priority(c);
    uint used = 0u;  // colours taken by neighbours coloured before this round
    for (uint side = 0u; side < 4u; ++side) {
        uint start = incidenceStart[k[side]];
        for (uint e = start; e < start + incidenceCount[k[side]]; ++e) {
            uint d = incidence[e] / 4u;
            if (d == c) continue;
            uint roundOfD = rounds[d];
            if (roundOfD >= pc.round) {
                if (!beats(c, hc, d)) return;  // a competitor wins: wait for a later round
            } else if (colours[d] < kContactColours) {
                used |= 1u << colours[d];
            }
        }
    }
    uint free = ~used;
    colours[c] = free == 0u || findLSB(free) >= kContactColours ? kLeftoverColour : uint(findLSB(free));
    rounds[c] = pc.round;
}

void main() {
    uint count = contactConstraintCount(totals[2], pc.capacity);
    for (uint c = gl_GlobalInvocationID.x; c < count; c += dispatches[kAllConstraintsDispatch].threads) colour(c);
}
