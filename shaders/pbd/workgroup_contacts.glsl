// docs/physics.md §14, "Contacts in the workgroup path": the contacts
// between objects in the iterations of the PBD workgroup solve
// (pbd/solve_in_workgroup.glsl), for the constraints of the contact set
// whose particles all belong to the workgroup's object (self contact). The
// stepper detects and colours the set once per substep (contacts/
// contact_stage.h); the first dispatch of a substep's iterations lists the
// object's constraints by colour (listObjectContacts), and every iteration
// projects them colour by colour, a barrier between colours, with the
// functions of the per-colour path's sweep (contacts/contact_sweep.glsl).
// The constraints reaching another object, and those the colouring left to
// the Jacobi average, are the stepper's projection after the solve.
//
// The lists live in device memory, a region per object (the C++ side,
// solvers/pbd/workgroup_contacts.h, lays it out and writes its header):
//   [0] its first contact particle, [1] its contact particles, [2] the
//   constraints its list holds, [3 .. 3 + kContactColours] each colour's
//   first entry and the end, then per colour and invocation a count (and
//   fill cursor), then the list. A counting sort: each invocation counts
//   its particles' constraints per colour, the counts are summed in
//   (colour, invocation) order, and each invocation writes its own in the
//   order it counted them: the same list whatever order the invocations run
//   in, without atomics.
// The includer declares, before including this, loadParticle/storeParticle,
// positions[], workgroupSync() and the push constants pc.
#ifndef VKSIM_WORKGROUP_CONTACTS_GLSL
#define VKSIM_WORKGROUP_CONTACTS_GLSL
#include "contacts/contact_types.h"
#include "contacts/contact_dispatch.glsl"

layout(std430, binding = 21) readonly buffer ContactParticles { ContactParticle particles[]; };
layout(std430, binding = 22) readonly buffer ContactPairs { uvec2 constraints[]; };
layout(std430, binding = 23) readonly buffer TriangleContacts { TriangleContact triangleContacts[]; };
layout(std430, binding = 24) readonly buffer ContactTotals { uint totals[]; };
layout(std430, binding = 25) readonly buffer ContactColours { uint contactColours[]; };
layout(std430, binding = 26) readonly buffer IncidenceStart { uint incidenceStart[]; };
layout(std430, binding = 27) readonly buffer IncidenceCount { uint incidenceCount[]; };
layout(std430, binding = 28) readonly buffer Incidence { uint incidence[]; };
layout(std430, binding = 29) coherent buffer ObjectContacts { uint objectContacts[]; };

#define VKSIM_CONTACT_POSITIONS
// The working positions in shared memory, with the inverse mass the
// constraints see (the mouse's particle held), as the per-colour path's p.
vec4 contactWorkingAt(uint i) { return loadParticle(i); }
vec3 contactStartAt(uint i) { return positions[i].xyz; }
void addContactCorrection(uint i, vec3 d) { storeParticle(i, loadParticle(i) + vec4(d, 0.0)); }
#include "contacts/contact_constraint.glsl"
#include "contacts/contact_sweep.glsl"

const uint kContactListStarts = 3u;
const uint kContactListCursors = kContactListStarts + kContactColours + 1u;
uint contactCursor(uint region, uint colour, uint t) { return region + kContactListCursors + colour * kSize + t; }
uint contactListFirst(uint region) { return region + kContactListCursors + kContactColours * kSize; }

// The pair constraints of the set this substep (the rest are four-particle ones).
uint contactPairCount() { return contactConstraintCount(totals[2], pc.contactCapacity); }

// The colour of constraint c of the set if its particles are all contact
// particles [first, first + count), else kNoColour.
uint objectContactColour(uint c, uint pairCount, uint first, uint count) {
    uvec4 k = contactConstraintParticles(c, pairCount);
    for (uint s = 0u; s < contactConstraintSize(c, pairCount); ++s)
        if (k[s] - first >= count) return kNoColour;
    return contactColours[c];
}

// What invocation t does for each constraint its contact particles list
// first (role 0, so each constraint once) that lies within the object and
// has a colour: `fill` false counts it, true writes it at its cursor.
void walkObjectContacts(uint region, bool fill) {
    uint t = gl_LocalInvocationID.x;
    uint first = objectContacts[region], count = objectContacts[region + 1u];
    uint capacity = objectContacts[region + 2u], list = contactListFirst(region);
    uint pairCount = contactPairCount();
    for (uint l = t; l < count; l += kSize) {
        uint k = first + l, start = incidenceStart[k];
        for (uint e = start; e < start + incidenceCount[k]; ++e) {
            uint entry = incidence[e];
            if ((entry & 3u) != 0u) continue;
            uint colour = objectContactColour(entry >> 2u, pairCount, first, count);
            if (colour >= kContactColours) continue;
            uint cursor = contactCursor(region, colour, t);
            uint at = objectContacts[cursor];
            objectContacts[cursor] = at + 1u;
            if (fill && at < capacity) objectContacts[list + at] = entry >> 2u;
        }
    }
}

// The object's constraints by colour, once per substep (after the
// detection, before its first iteration). Needs kSize >= kContactColours.
void listObjectContacts(uint region) {
    uint t = gl_LocalInvocationID.x;
    for (uint colour = 0u; colour < kContactColours; ++colour) objectContacts[contactCursor(region, colour, t)] = 0u;
    walkObjectContacts(region, false);
    workgroupSync();
    // Each colour's total (invocation `colour`), then the colours' starts
    // in order (invocation 0), then each invocation's cursor in its colour.
    uint starts = region + kContactListStarts;
    if (t < kContactColours) {
        uint total = 0u;
        for (uint u = 0u; u < kSize; ++u) total += objectContacts[contactCursor(region, t, u)];
        objectContacts[starts + t + 1u] = total;
    }
    workgroupSync();
    if (t == 0u) {
        objectContacts[starts] = 0u;
        for (uint colour = 1u; colour <= kContactColours; ++colour)
            objectContacts[starts + colour] += objectContacts[starts + colour - 1u];
    }
    workgroupSync();
    if (t < kContactColours) {
        uint at = objectContacts[starts + t];
        for (uint u = 0u; u < kSize; ++u) {
            uint cursor = contactCursor(region, t, u);
            uint n = objectContacts[cursor];
            objectContacts[cursor] = at;
            at += n;
        }
    }
    workgroupSync();
    walkObjectContacts(region, true);
    workgroupSync();
}

// One iteration's projection of the listed constraints, colour by colour,
// a barrier after each colour that has any (every invocation reads the
// same counts, so all take the same barriers).
void projectObjectContacts(uint region) {
    uint t = gl_LocalInvocationID.x;
    uint capacity = objectContacts[region + 2u], list = contactListFirst(region);
    uint starts = region + kContactListStarts;
    uint pairCount = contactPairCount();
    for (uint colour = 0u; colour < kContactColours; ++colour) {
        uint begin = min(objectContacts[starts + colour], capacity);
        uint end = min(objectContacts[starts + colour + 1u], capacity);
        if (begin == end) continue;
        for (uint j = begin + t; j < end; j += kSize)
            projectSweptConstraint(objectContacts[list + j], pairCount, kContactPairsAll);
        barrier();
    }
}

#endif
