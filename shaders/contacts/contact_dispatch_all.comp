#version 460
// The contact-constraint set, one thread, after both detections wrote their
// constraints: the dispatch over every constraint of the set, and each
// colour's count back to zero.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 1) writeonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 2) writeonly buffer ColourTable { ContactColourTable table; };

void main() {
    if (gl_GlobalInvocationID.x != 0u) return;
    dispatches[kAllConstraintsDispatch] = contactDispatch(contactSetCount(totals[2], totals[3], pc), pc.round);
    for (uint c = 0u; c < kContactColours; ++c) table.counts[c] = 0u;
}
