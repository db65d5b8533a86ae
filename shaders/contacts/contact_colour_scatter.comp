#version 460
// Contact colouring, last pass: each coloured constraint of the set (both
// kinds) into its colour's list. The order within a list depends on the GPU's, but a colour's
// constraints share no particle, so the order they are projected in
// changes no result.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 1) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 2) readonly buffer Colours { uint colours[]; };
layout(std430, binding = 3) buffer ColourTable { ContactColourTable table; };
layout(std430, binding = 4) writeonly buffer ColourLists { uint colourLists[]; };

void main() {
    uint count = contactSetCount(totals[2], totals[3], pc);
    for (uint c = gl_GlobalInvocationID.x; c < count; c += dispatches[kAllConstraintsDispatch].threads) {
        uint colour = colours[c];
        if (colour < kContactColours) colourLists[table.offsets[colour] + atomicAdd(table.fill[colour], 1u)] = c;
    }
}
