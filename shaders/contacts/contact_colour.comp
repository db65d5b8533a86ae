#version 460
// Contact colouring, one round of Jones-Plassmann (Jones and Plassmann
// 1993) over the contact-constraint set (contact_constraint.glsl: the
// pairs and the four-particle constraints together), one thread each. A
// constraint not yet coloured takes a colour in round r when its priority
// beats that of every constraint sharing a particle with it (found in its
// particles' incidence lists) that is not coloured before round r; it
// takes the smallest colour none of those coloured before uses (past
// kContactColours: kLeftoverColour). Two constraints that share a particle
// never take a colour in the same round, and a round's decisions read only
// what earlier rounds wrote (a neighbour colouring itself now counts as
// uncoloured either way), so the colouring is the same whatever order the
// GPU runs in. A pair's priority hashes its particles, a vertex-triangle
// constraint's the vertex and the triangle, an edge-edge constraint's its
// two edges, each numbered within its contact group (a batch's copy colours as a world of it alone): the same
// constraint keeps its priority from substep to substep. The detections
// write the priorities with the constraints, so that a round reads one
// value per neighbour.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 1) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 2) readonly buffer Constraints { uvec2 constraints[]; };
layout(std430, binding = 3) readonly buffer TriangleContacts { TriangleContact triangleContacts[]; };
layout(std430, binding = 4) readonly buffer IncidenceStart { uint incidenceStart[]; };
layout(std430, binding = 5) readonly buffer IncidenceCount { uint incidenceCount[]; };
layout(std430, binding = 6) readonly buffer Incidence { uint incidence[]; };
layout(std430, binding = 7) buffer Colours { uint colours[]; };
layout(std430, binding = 8) buffer Rounds { uint rounds[]; };
// Written with the constraints (contact_pairs.comp, triangle_pairs.comp, edge_pairs.comp).
layout(std430, binding = 9) readonly buffer Priorities { uint priorities[]; };
#include "contacts/contact_constraint.glsl"

// Whether constraint c beats constraint d (ties, rare, by number).
bool beats(uint c, uint hc, uint d) {
    uint hd = priorities[d];
    return hc > hd || (hc == hd && c > d);
}

void colour(uint c, uint pairCount) {
    if (rounds[c] != kNoColour) return;
    uvec4 k = contactConstraintParticles(c, pairCount);
    uint hc = priorities[c];
    uint used = 0u;  // colours taken by neighbours coloured before this round
    for (uint side = 0u; side < contactConstraintSize(c, pairCount); ++side) {
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
    uint pairCount = contactConstraintCount(totals[2], pc.capacity);
    uint count = pairCount + contactTriangleCount(totals[3], pc);
    for (uint c = gl_GlobalInvocationID.x; c < count; c += dispatches[kAllConstraintsDispatch].threads)
        colour(c, pairCount);
}
