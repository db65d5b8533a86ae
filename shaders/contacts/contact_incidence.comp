#version 460
// Contact colouring, first pass of a substep: for each entry of each
// particle's neighbour list, the constraint of that pair: in the particle's
// own constraints when the neighbour's index is larger, else found in the
// neighbour's (a short list). kNoConstraint where it did not fit.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_response.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Counts { uint counts[]; };
layout(std430, binding = 1) readonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 2) readonly buffer Neighbours { uint neighbours[]; };
layout(std430, binding = 3) readonly buffer ConstraintCounts { uint constraintCounts[]; };
layout(std430, binding = 4) readonly buffer ConstraintOffsets { uint constraintOffsets[]; };
layout(std430, binding = 5) readonly buffer Constraints { uvec2 constraints[]; };
layout(std430, binding = 6) writeonly buffer ConstraintOf { uint constraintOf[]; };

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count) return;
    uint constraintCapacity = pc.capacity / 2u;
    uint first = offsets[k];
    uint owned = 0u;
    for (uint e = first; e < first + contactEntries(counts[k], first, pc.capacity); ++e) {
        uint l = neighbours[e];
        uint found = kNoConstraint;
        if (l > k) {
            uint c = constraintOffsets[k] + owned++;
            if (c < constraintCapacity) found = c;
        } else {
            uint start = constraintOffsets[l];
            uint end = min(start + constraintCounts[l], constraintCapacity);
            for (uint c = start; c < end; ++c)
                if (constraints[c].y == k) found = c;
        }
        constraintOf[e] = found;
    }
}
