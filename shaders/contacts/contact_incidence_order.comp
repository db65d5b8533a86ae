#version 460
// The incidence lists of the contact-constraint set, with triangles, pass 4
// (after contact_incidence.comp, pass 3), one thread per four-particle constraint
// (vertex-triangle or edge-edge), as triangle_incidence_fill.comp: each of
// its entries 4 c + role goes to its rank among its particle's
// four-particle entries, which follow the particle's pairs in `incidence`,
// ascending (by constraint, then role). The rank is the number of the
// particle's entries in `unordered` (the fill's slots, from its
// triangleStart on) below it: the same whatever slots the fill handed out, so
// the lists are a stable counting sort by particle, and deterministic. The
// pairs keep their neighbour-list order.
//
// Each thread counts over four lists, each read once: a particle is in a
// few hundred constraints at most where contacts are dense. (An in-place
// sort of each list by one thread took passes quadratic in its length,
// and lavapipe ends every loop of an invocation after 65,535 passes in
// all, docs/physics.md §11: it left the longest lists unsorted in an order
// that depended on the fill's.)
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 1) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 2) readonly buffer TriangleContacts { TriangleContact triangleContacts[]; };
// Each particle's four-particle entries before it (scanned; totals[4] all of them).
layout(std430, binding = 3) readonly buffer TriangleStart { uint triangleStart[]; };
layout(std430, binding = 4) readonly buffer IncidenceStart { uint incidenceStart[]; };
layout(std430, binding = 5) readonly buffer IncidenceCount { uint incidenceCount[]; };
layout(std430, binding = 6) readonly buffer Unordered { uint unordered[]; };
layout(std430, binding = 7) writeonly buffer Incidence { uint incidence[]; };

void place(uint k, uint entry) {
    uint end = incidenceStart[k] + incidenceCount[k];
    uint from = triangleStart[k];
    uint four = (k + 1u < pc.count ? triangleStart[k + 1u] : totals[4]) - from;
    uint rank = 0u;
    for (uint s = from; s < from + four; ++s) rank += unordered[s] < entry ? 1u : 0u;
    incidence[end - four + rank] = entry;
}

void main() {
    uint pairCount = contactConstraintCount(totals[2], pc.capacity);
    uint count = contactTriangleCount(totals[3], pc);
    for (uint t = gl_GlobalInvocationID.x; t < count; t += dispatches[kAllConstraintsDispatch].threads) {
        uvec4 k = triangleContacts[t].particles;
        uint c = pairCount + t;
        for (uint role = 0u; role < 4u; ++role) place(k[role], 4u * c + role);
    }
}
