#version 460
// Before the edge-edge detection, one workgroup: the length of the longest
// surface edge at the working positions into longest[0]. An edge within
// reach of another has an end within reach plus half its own length of
// that other edge, so edge_pairs.comp grows each edge's search box by half
// of this. A fixed-order reduction in shared memory, no atomics.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 p[]; };
layout(std430, binding = 1) readonly buffer Particles { ContactParticle particles[]; };
layout(std430, binding = 2) readonly buffer Edges { ContactEdge edges[]; };
layout(std430, binding = 3) writeonly buffer Longest { float longest[]; };

shared float lengths[64];

void main() {
    uint thread = gl_LocalInvocationID.x;
    float most = 0.0;
    for (uint e = thread; e < pc.edges; e += 64u) {
        ContactEdge edge = edges[e];
        most = max(most, distance(p[particles[edge.a].particle].xyz, p[particles[edge.b].particle].xyz));
    }
    lengths[thread] = most;
    barrier();
    for (uint stride = 32u; stride > 0u; stride /= 2u) {
        if (thread < stride) lengths[thread] = max(lengths[thread], lengths[thread + stride]);
        barrier();
    }
    if (thread == 0u) longest[0] = lengths[0];
}
