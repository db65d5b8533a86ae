#version 460
// The incidence lists of the contact-constraint set, with triangles, pass 4,
// one thread per contact particle: its vertex-triangle entries, which
// follow its pairs', sorted ascending (by constraint, then role), in place.
// Their order is then the same whatever slots triangle_incidence_fill.comp
// handed out: the lists are a stable counting sort by particle, and
// deterministic. The pairs keep their neighbour-list order. A particle is
// in a few dozen constraints: an insertion sort.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 1) readonly buffer IncidenceStart { uint incidenceStart[]; };
layout(std430, binding = 2) readonly buffer IncidenceCount { uint incidenceCount[]; };
layout(std430, binding = 3) buffer Incidence { uint incidence[]; };

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count) return;
    uint firstTriangleEntry = 4u * contactConstraintCount(totals[2], pc.capacity);
    uint start = incidenceStart[k], end = start + incidenceCount[k];
    while (start < end && incidence[start] < firstTriangleEntry) ++start;  // the pairs
    for (uint i = start + 1u; i < end; ++i) {
        uint entry = incidence[i];
        uint j = i;
        for (; j > start && incidence[j - 1u] > entry; --j) incidence[j] = incidence[j - 1u];
        incidence[j] = entry;
    }
}
