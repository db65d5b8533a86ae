#version 460
// After the four-particle constraints are written (triangle_pairs.comp,
// edge_pairs.comp), one thread: the substep's vertex-triangle and edge-edge
// constraints into the stats (ContactStats), and whether they overflowed
// their list. Their counts were scanned together, the triangles' first:
// offsets[triangles] is how many vertex-triangle constraints there are,
// totals[3] how many of both kinds.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 1) readonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 2) buffer Stats { ContactStats stats; };

void main() {
    if (gl_GlobalInvocationID.x != 0u) return;
    uint constraints = totals[3];
    uint vertexTriangle = pc.edges == 0u ? constraints : offsets[pc.triangles];
    uint edgeEdge = constraints - vertexTriangle;
    stats.lastTriangleContacts = vertexTriangle;
    stats.mostTriangleContacts = max(stats.mostTriangleContacts, vertexTriangle);
    stats.lastEdgeContacts = edgeEdge;
    stats.mostEdgeContacts = max(stats.mostEdgeContacts, edgeEdge);
    if (constraints > pc.triangleCapacity) stats.triangleOverflowSubsteps += 1u;
}
