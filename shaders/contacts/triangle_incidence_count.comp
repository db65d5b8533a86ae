#version 460
// Vertex-triangle incidence, pass 1 (after the constraints are written and
// each particle's count zeroed by grid_clear.comp): how many constraints
// each contact particle is in, as vertex or corner. Integer atomics, whose
// result does not depend on their order; a scan then turns the counts into
// each particle's first slot of the incidence list.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 1) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 2) readonly buffer TriangleContacts { TriangleContact triangleContacts[]; };
layout(std430, binding = 3) readonly buffer Triangles { ContactTriangle triangles[]; };
layout(std430, binding = 4) buffer IncidenceCounts { uint incidenceCounts[]; };

void main() {
    uint count = contactConstraintCount(totals[2], pc.capacity);
    for (uint c = gl_GlobalInvocationID.x; c < count; c += dispatches[kAllConstraintsDispatch].threads) {
        TriangleContact contact = triangleContacts[c];
        ContactTriangle t = triangles[contact.triangle];
        atomicAdd(incidenceCounts[contact.vertex], 1u);
        atomicAdd(incidenceCounts[t.a], 1u);
        atomicAdd(incidenceCounts[t.b], 1u);
        atomicAdd(incidenceCounts[t.c], 1u);
    }
}
