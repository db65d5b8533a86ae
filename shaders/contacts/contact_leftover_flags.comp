#version 460
// After the colouring, one thread per contact particle: 1 where some
// constraint of its incidence list has no colour (the colouring left it
// to the Jacobi average), else 0. Scanned, these place the particles in
// the list the Jacobi passes run over (contact_leftover_list.comp).
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer IncidenceStart { uint incidenceStart[]; };
layout(std430, binding = 1) readonly buffer IncidenceCount { uint incidenceCount[]; };
layout(std430, binding = 2) readonly buffer Incidence { uint incidence[]; };
layout(std430, binding = 3) readonly buffer Colours { uint colours[]; };
layout(std430, binding = 4) writeonly buffer Flags { uint flags[]; };

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count) return;
    uint start = incidenceStart[k];
    uint flag = 0u;
    for (uint e = start; e < start + incidenceCount[k] && flag == 0u; ++e)
        if (colours[incidence[e] / 4u] >= kContactColours) flag = 1u;
    flags[k] = flag;
}
