#version 460
// Contact colouring, one round of Jones-Plassmann (Jones and Plassmann
// 1993) over the pair constraints, one thread each. A constraint not yet
// coloured takes a colour in round r when its priority beats that of every
// constraint sharing a particle with it that is not coloured before round
// r; it takes the smallest colour none of those coloured before uses (past
// kContactColours: kLeftoverColour). Two constraints that share a particle
// never take a colour in the same round, and a round's decisions read only
// what earlier rounds wrote (a neighbour colouring itself now counts as
// uncoloured either way), so the colouring is the same whatever order the
// GPU runs in. Priorities hash the pair's particles, numbered within their
// contact group (a batch's copy colours as a world of it alone): the same
// pair keeps its priority from substep to substep.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_response.glsl"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Counts { uint counts[]; };
layout(std430, binding = 1) readonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 2) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 3) readonly buffer Constraints { uvec2 constraints[]; };
layout(std430, binding = 4) readonly buffer ConstraintOf { uint constraintOf[]; };
layout(std430, binding = 5) buffer Colours { uint colours[]; };
layout(std430, binding = 6) buffer Rounds { uint rounds[]; };
layout(std430, binding = 7) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 8) readonly buffer LocalIndices { uint localIndices[]; };  // ContactModel::localIndices

uint pairHash(uvec2 pair) { return contactPairHash(localIndices[pair.x], localIndices[pair.y]); }

// Whether constraint c beats constraint d (ties, rare, by index).
bool beats(uint c, uint hc, uint d) {
    uint hd = pairHash(constraints[d]);
    return hc > hd || (hc == hd && c > d);
}

void colour(uint c) {
    if (rounds[c] != kNoColour) return;
    uvec2 pair = constraints[c];
    uint hc = pairHash(pair);
    uint used = 0u;  // colours taken by neighbours coloured before this round
    for (uint side = 0u; side < 2u; ++side) {
        uint k = side == 0u ? pair.x : pair.y;
        uint first = offsets[k];
        for (uint e = first; e < first + contactEntries(counts[k], first, pc.capacity); ++e) {
            uint d = constraintOf[e];
            if (d == kNoConstraint || d == c) continue;
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
