#version 460
// Contact colouring, second half of a round (contact_colour_slots.comp is
// the first), one thread per constraint of the contact-constraint set
// (contact_constraint.glsl: the pairs and the four-particle constraints
// together). A colouring of the set is an edge colouring of its particles'
// graph: no colour twice at one particle. Each round, every constraint
// without a colour
// - takes the colour it proposed in the round before, when at each of its
//   particles it is the strongest of those proposing it (the particle's
//   slot) and no constraint there has taken it yet;
// - or else proposes a colour again, drawn by a hash
//   (contactColourProposal) from those none of its particles has given
//   out, leaving out those a stronger constraint proposed at one of them
//   (where that leaves none, from all not given out); with none free at
//   all it is left out (kLeftoverColour).
// Two constraints that share a particle never take one colour in one
// round (only one is the particle's strongest for it), and a round reads
// only what the rounds before wrote (the slots, from the proposals and
// colours before it), so the colours are the same whatever order the GPU
// runs in. Round 0 only proposes. A constraint's priority hashes its
// particles (a pair), the vertex and the triangle, or the two edges, each
// numbered within its contact group (a batch's copy colours as a world of
// it alone): the same constraint keeps it from substep to substep. The
// detections write the priorities with the constraints, and the
// constraints without a colour or a proposal. Randomised proposals of
// this kind colour a graph's edges in a few rounds (Grable and Panconesi
// 1997); docs/physics.md §14.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_dispatch.glsl"
#include "math/real_glsl.h"
#include "math/coulomb_friction.glsl"
#include "contacts/contact_math.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 1) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 2) readonly buffer Constraints { uvec2 constraints[]; };
layout(std430, binding = 3) readonly buffer TriangleContacts { TriangleContact triangleContacts[]; };
layout(std430, binding = 4) readonly buffer UsedColours { uint usedColours[]; };
layout(std430, binding = 5) readonly buffer Slots { uvec2 slots[]; };  // (constraint, its priority)
layout(std430, binding = 6) buffer Colours { uint colours[]; };
layout(std430, binding = 7) buffer Proposals { uint proposals[]; };
layout(std430, binding = 8) readonly buffer Priorities { uint priorities[]; };
#include "contacts/contact_constraint.glsl"

const uint kAllContactColours = (1u << kContactColours) - 1u;

void colour(uint c, uint pairCount) {
    if (colours[c] != kNoColour) return;
    uvec4 k = contactConstraintParticles(c, pairCount);
    uint hc = priorities[c];
    uint proposed = proposals[c];
    bool takes = pc.round > 0u && proposed < kContactColours;
    uint used = 0u, stronger = 0u;
    // Round 0 reads no slots: the buffers still hold the last substep's.
    if (pc.round > 0u)
        for (uint side = 0u; side < contactConstraintSize(c, pairCount); ++side) {
            uint usedHere = usedColours[k[side]];
            used |= usedHere;
            uint first = kContactColours * k[side];
            if (takes && (slots[first + proposed].x != c || ((usedHere >> proposed) & 1u) != 0u)) takes = false;
            for (uint j = 0u; j < kContactColours; ++j) {
                uvec2 slot = slots[first + j];
                uint d = slot.x;
                if (d != kNoColour && d != c && (slot.y > hc || (slot.y == hc && d > c))) stronger |= 1u << j;
            }
        }
    if (takes) {
        colours[c] = proposed;
        return;
    }
    uint free = ~used & kAllContactColours;
    if (free == 0u) {
        colours[c] = kLeftoverColour;
        return;
    }
    uint candidates = (free & ~stronger) != 0u ? free & ~stronger : free;
    proposals[c] = contactColourProposal(hc, pc.round, candidates);
}

void main() {
    uint pairCount = contactConstraintCount(totals[2], pc.capacity);
    uint count = pairCount + contactTriangleCount(totals[3], pc);
    for (uint c = gl_GlobalInvocationID.x; c < count; c += dispatches[kAllConstraintsDispatch].threads)
        colour(c, pairCount);
}
