#version 460
// Vertex-triangle incidence, pass 2 (after the scan of the counts into
// each particle's first slot): each constraint c enters the lists of its
// four particles as the entry 4 c + role (0: the vertex, 1..3: corners a, b,
// c). Which slot depends on the order the GPU runs in;
// triangle_incidence_order.comp then fixes it.
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
layout(std430, binding = 5) buffer IncidenceFill { uint incidenceFill[]; };
layout(std430, binding = 6) writeonly buffer Incidence { uint incidence[]; };

void enter(uint k, uint entry) { incidence[incidenceStart[k] + atomicAdd(incidenceFill[k], 1u)] = entry; }

void main() {
    uint count = contactConstraintCount(totals[2], pc.capacity);
    for (uint c = gl_GlobalInvocationID.x; c < count; c += dispatches[kAllConstraintsDispatch].threads) {
        TriangleContact contact = triangleContacts[c];
        ContactTriangle t = triangles[contact.triangle];
        enter(contact.vertex, 4u * c);
        enter(t.a, 4u * c + 1u);
        enter(t.b, 4u * c + 2u);
        enter(t.c, 4u * c + 3u);
    }
}
