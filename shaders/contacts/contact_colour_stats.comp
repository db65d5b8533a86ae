#version 460
// After the colouring, one thread per constraint: the colours used and the
// constraints left out, into the stats, and each colour's count (integer
// atomics: the same totals whatever the order), over the whole set, both
// kinds.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 1) readonly buffer Colours { uint colours[]; };
layout(std430, binding = 2) buffer Stats { ContactStats stats; };
layout(std430, binding = 3) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 4) buffer ColourTable { ContactColourTable table; };

void main() {
    if (gl_GlobalInvocationID.x == 0u) atomicAdd(stats.colourings, 1u);
    uint count = contactSetCount(totals[2], totals[3], pc);
    for (uint c = gl_GlobalInvocationID.x; c < count; c += dispatches[kAllConstraintsDispatch].threads) {
        uint colour = colours[c];
        if (colour < kContactColours) {
            atomicMax(stats.mostColours, colour + 1u);
            atomicAdd(table.counts[colour], 1u);
        } else {
            atomicAdd(stats.leftoverConstraints, 1u);
        }
    }
}
