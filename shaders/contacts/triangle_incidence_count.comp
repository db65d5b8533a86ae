#version 460
// The incidence lists of the contact-constraint set, with triangles, pass 1
// (after each particle's count is zeroed by grid_clear.comp): how many
// four-particle constraints (vertex-triangle and edge-edge) each contact
// particle is in, in any role. Integer atomics, whose result does not depend on their order; a
// scan then turns the counts into each particle's vertex-triangle entries
// before it, which contact_incidence.comp places its list by.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 1) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 2) readonly buffer TriangleContacts { TriangleContact triangleContacts[]; };
layout(std430, binding = 3) buffer TriangleCounts { uint triangleCounts[]; };

void main() {
    uint count = contactTriangleCount(totals[3], pc);
    for (uint t = gl_GlobalInvocationID.x; t < count; t += dispatches[kAllConstraintsDispatch].threads) {
        uvec4 k = triangleContacts[t].particles;
        for (uint role = 0u; role < 4u; ++role) atomicAdd(triangleCounts[k[role]], 1u);
    }
}
