#version 460
// The incidence lists of the contact-constraint set, with triangles, pass 2
// (after the scan of triangle_incidence_count.comp's counts, with each
// particle's count zeroed by grid_clear.comp): each four-particle
// constraint, number c in the set, enters the lists of its four particles
// as the entry 4 c + role (TriangleContact::particles: the vertex, corners
// a, b, c; or the first edge's ends, the second's), in `unordered`, where
// particle k's four-particle entries take the slots from its scanned
// triangleStart[k] on. Which slot depends on the order the GPU runs in;
// contact_incidence_order.comp then fixes it, after contact_incidence.comp
// has placed the pairs and added them to the count.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 1) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 2) readonly buffer TriangleContacts { TriangleContact triangleContacts[]; };
layout(std430, binding = 3) readonly buffer TriangleStart { uint triangleStart[]; };
layout(std430, binding = 4) buffer IncidenceCount { uint incidenceCount[]; };
layout(std430, binding = 5) writeonly buffer Unordered { uint unordered[]; };

void enter(uint k, uint entry) { unordered[triangleStart[k] + atomicAdd(incidenceCount[k], 1u)] = entry; }

void main() {
    uint pairCount = contactConstraintCount(totals[2], pc.capacity);
    uint count = contactTriangleCount(totals[3], pc);
    for (uint t = gl_GlobalInvocationID.x; t < count; t += dispatches[kAllConstraintsDispatch].threads) {
        uvec4 k = triangleContacts[t].particles;
        uint c = pairCount + t;
        for (uint role = 0u; role < 4u; ++role) enter(k[role], 4u * c + role);
    }
}
