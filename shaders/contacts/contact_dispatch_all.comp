#version 460
// Contact colouring, one thread, after the constraints are written: the
// dispatch over every constraint, and each colour's count back to zero.
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
    dispatches[kAllConstraintsDispatch] = contactDispatch(contactConstraintCount(totals[2], pc.capacity), pc.round);
    for (uint c = 0u; c < kContactColours; ++c) table.counts[c] = 0u;
}
