#version 460
// The incidence lists of the contact-constraint set (contact_constraint.glsl),
// one thread per contact particle: the entries 4 c + role of the
// constraints c it is in (role: its place among the constraint's
// particles), which the colouring and the Jacobi average read. This pass
// writes each particle's pairs, in its neighbour list's order: the
// constraint of each entry is in the particle's own constraints when the
// neighbour's index is larger, else found in the neighbour's (a short
// list); an entry whose constraint did not fit is left out. Its
// four-particle constraints follow, after the pairs: the list of particle k
// starts at its neighbour list's offset plus its four-particle entries
// before it (scanned from triangle_incidence_count.comp), so the lists hold
// both kinds without overlapping. With triangles, the count
// triangle_incidence_fill.comp left (the particle's four-particle entries,
// in its unordered slots) is added to the pairs', and
// contact_incidence_order.comp places them.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_response.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Counts { uint counts[]; };
layout(std430, binding = 1) readonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 2) readonly buffer Neighbours { uint neighbours[]; };
layout(std430, binding = 3) readonly buffer ConstraintCounts { uint constraintCounts[]; };
layout(std430, binding = 4) readonly buffer ConstraintOffsets { uint constraintOffsets[]; };
layout(std430, binding = 5) readonly buffer Constraints { uvec2 constraints[]; };
layout(std430, binding = 6) readonly buffer TriangleStart { uint triangleStart[]; };  // with triangles only
layout(std430, binding = 7) writeonly buffer IncidenceStart { uint incidenceStart[]; };
layout(std430, binding = 8) buffer IncidenceCount { uint incidenceCount[]; };
layout(std430, binding = 9) writeonly buffer Incidence { uint incidence[]; };

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count) return;
    uint constraintCapacity = pc.capacity / 2u;
    uint first = offsets[k];
    uint start = min(first, pc.capacity) + (pc.triangles != 0u ? triangleStart[k] : 0u);
    uint written = 0u, owned = 0u;
    for (uint e = first; e < first + contactEntries(counts[k], first, pc.capacity); ++e) {
        uint l = neighbours[e];
        uint found = kNoConstraint, role = 0u;
        if (l > k) {
            uint c = constraintOffsets[k] + owned++;
            if (c < constraintCapacity) found = c;
        } else {
            role = 1u;
            uint from = constraintOffsets[l];
            uint end = min(from + constraintCounts[l], constraintCapacity);
            for (uint c = from; c < end; ++c)
                if (constraints[c].y == k) found = c;
        }
        if (found != kNoConstraint) incidence[start + written++] = 4u * found + role;
    }
    incidenceStart[k] = start;
    incidenceCount[k] = written + (pc.triangles != 0u ? incidenceCount[k] : 0u);
}
