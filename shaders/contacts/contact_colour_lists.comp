#version 460
// Contact colouring, one thread, after the colours are counted: each
// colour's first slot in the colour lists and its dispatch, and the fill
// cursors back to zero.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) writeonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 1) buffer ColourTable { ContactColourTable table; };

void main() {
    if (gl_GlobalInvocationID.x != 0u) return;
    uint offset = 0u;
    for (uint c = 0u; c < kContactColours; ++c) {
        table.offsets[c] = offset;
        table.fill[c] = 0u;
        offset += table.counts[c];
        dispatches[kFirstColourDispatch + c] = contactDispatch(table.counts[c], pc.round);
    }
}
