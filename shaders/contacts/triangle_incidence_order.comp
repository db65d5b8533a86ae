#version 460
// Vertex-triangle incidence, pass 3, one thread per contact particle: its
// entries sorted ascending (by constraint, then role), in place. The order
// is the same whatever slots triangle_incidence_fill.comp handed out, so
// the lists are a stable counting sort by particle, and deterministic.
// A particle is in a few dozen constraints: an insertion sort.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer IncidenceStart { uint incidenceStart[]; };
layout(std430, binding = 1) readonly buffer IncidenceFill { uint incidenceCount[]; };  // = its count
layout(std430, binding = 2) buffer Incidence { uint incidence[]; };

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count) return;
    uint start = incidenceStart[k], end = start + incidenceCount[k];
    for (uint i = start + 1u; i < end; ++i) {
        uint entry = incidence[i];
        uint j = i;
        for (; j > start && incidence[j - 1u] > entry; --j) incidence[j] = incidence[j - 1u];
        incidence[j] = entry;
    }
}
