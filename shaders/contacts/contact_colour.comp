#version 460
// Contact colouring, one round of a speculative greedy colouring
// (Gebremedhin and Manne 2000; Deveci et al. 2016) over the
// contact-constraint set (contact_constraint.glsl: the pairs and the
// four-particle constraints together), one thread each, the neighbours
// found in its particles' incidence lists. Each round an undecided
// constraint first settles the colour it guessed last round: it keeps it
// unless a neighbour took that colour last round, or an undecided
// neighbour of higher priority guessed it too. One that does not keep it
// guesses again: the smallest colour that no neighbour decided before this
// round has and no undecided neighbour of higher priority guessed last
// round (what such a neighbour is likely to keep now), or, when those
// leave none of the kContactColours, the smallest no decided neighbour
// has; past them all, kLeftoverColour, which it keeps next round. Two
// constraints that share a particle never keep one colour: of two equal
// guesses the lower priority yields, and a guess is checked against every
// colour kept since it was made. A round reads the guesses of the last
// round (two slots a constraint, by the round's parity) and what earlier
// rounds decided (a neighbour deciding in this round counts as undecided
// either way), so the colours are the same whatever order the GPU runs
// in. Jones-Plassmann (Jones and Plassmann 1993), which colours a
// constraint only after every neighbour of higher priority, needs rounds
// of the order of the longest chain of falling priorities, and left a
// third of a dense pile's pairs undecided after as many rounds
// (docs/physics.md §14). A pair's priority hashes its particles, a
// vertex-triangle constraint's the vertex and the triangle, an edge-edge
// constraint's its two edges, each numbered within its contact group (a
// batch's copy colours as a world of it alone): the same constraint keeps
// its priority from substep to substep. The detections write the
// priorities with the constraints, so that a round reads one value per
// neighbour.
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
// Two per constraint: the guess of an even round, then of an odd one.
layout(std430, binding = 10) buffer Guesses { uint guesses[]; };
#include "contacts/contact_constraint.glsl"

// Whether constraint c beats constraint d (ties, rare, by number).
bool beats(uint c, uint hc, uint d) {
    uint hd = priorities[d];
    return hc > hd || (hc == hd && c > d);
}

// The smallest colour that `taken` leaves, or kLeftoverColour.
uint smallestFree(uint taken) {
    uint free = ~taken;
    return free == 0u || findLSB(free) >= kContactColours ? kLeftoverColour : uint(findLSB(free));
}

void colour(uint c, uint pairCount) {
    if (rounds[c] != kNoColour) return;
    uvec4 k = contactConstraintParticles(c, pairCount);
    uint size = contactConstraintSize(c, pairCount);
    uint hc = priorities[c];
    uint lastGuess = 2u * c + ((pc.round + 1u) & 1u), newGuess = 2u * c + (pc.round & 1u);
    if (pc.round > 0u) {
        uint guess = guesses[lastGuess];
        bool keeps = true;
        for (uint side = 0u; side < size && keeps; ++side) {
            uint start = incidenceStart[k[side]];
            for (uint e = start; e < start + incidenceCount[k[side]] && keeps; ++e) {
                uint d = incidence[e] / 4u;
                if (d == c || guess == kLeftoverColour) continue;
                uint roundOfD = rounds[d];
                if (roundOfD == pc.round - 1u) keeps = colours[d] != guess;
                else if (roundOfD >= pc.round) keeps = guesses[2u * d + ((pc.round + 1u) & 1u)] != guess || beats(c, hc, d);
            }
        }
        if (keeps) {
            colours[c] = guess;
            rounds[c] = pc.round;
            return;
        }
    }
    uint decided = 0u, likely = 0u;  // colours of neighbours decided before this round; guesses of stronger ones
    for (uint side = 0u; side < size; ++side) {
        uint start = incidenceStart[k[side]];
        for (uint e = start; e < start + incidenceCount[k[side]]; ++e) {
            uint d = incidence[e] / 4u;
            if (d == c) continue;
            uint roundOfD = rounds[d];
            if (roundOfD < pc.round) {
                if (colours[d] < kContactColours) decided |= 1u << colours[d];
            } else if (pc.round > 0u && !beats(c, hc, d)) {
                uint theirs = guesses[2u * d + ((pc.round + 1u) & 1u)];
                if (theirs < kContactColours) likely |= 1u << theirs;
            }
        }
    }
    uint guess = smallestFree(decided | likely);
    guesses[newGuess] = guess == kLeftoverColour ? smallestFree(decided) : guess;
}

void main() {
    uint pairCount = contactConstraintCount(totals[2], pc.capacity);
    uint count = pairCount + contactTriangleCount(totals[3], pc);
    for (uint c = gl_GlobalInvocationID.x; c < count; c += dispatches[kAllConstraintsDispatch].threads)
        colour(c, pairCount);
}
