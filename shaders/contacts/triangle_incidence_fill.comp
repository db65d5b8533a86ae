#version 460
// The incidence lists of the contact-constraint set, with triangles, pass 3
// (after contact_incidence.comp wrote each particle's pairs and their
// count): each vertex-triangle constraint, number c in the set, enters the
// lists of its four particles after their pairs, as the entry 4 c + role
// (0: the vertex, 1..3: corners a, b, c). Which slot depends on the order
// the GPU runs in; contact_incidence_order.comp then fixes it.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 1) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 2) readonly buffer TriangleContacts { TriangleContact triangleContacts[]; };
layout(std430, binding = 3) readonly buffer Triangles { ContactTriangle triangles[]; };
layout(std430, binding = 4) readonly buffer IncidenceStart { uint incidenceStart[]; };
layout(std430, binding = 5) buffer IncidenceCount { uint incidenceCount[]; };
layout(std430, binding = 6) writeonly buffer Incidence { uint incidence[]; };

void enter(uint k, uint entry) { incidence[incidenceStart[k] + atomicAdd(incidenceCount[k], 1u)] = entry; }

void main() {
    uint pairCount = contactConstraintCount(totals[2], pc.capacity);
    uint count = contactTriangleCount(totals[3], pc);
    for (uint t = gl_GlobalInvocationID.x; t < count; t += dispatches[kAllConstraintsDispatch].threads) {
        TriangleContact contact = triangleContacts[t];
        ContactTriangle tri = triangles[contact.triangle];
        uint c = pairCount + t;
        enter(contact.vertex, 4u * c);
        enter(tri.a, 4u * c + 1u);
        enter(tri.b, 4u * c + 2u);
        enter(tri.c, 4u * c + 3u);
    }
}
