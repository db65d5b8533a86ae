#version 460
// After the scan of the neighbour counts, one thread: the substep's entries
// into the stats (ContactStats), and whether they overflowed the list.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 1) buffer Stats { ContactStats stats; };

void main() {
    if (gl_GlobalInvocationID.x != 0u) return;
    uint entries = totals[0];
    stats.lastEntries = entries;
    stats.mostEntries = max(stats.mostEntries, entries);
    if (entries > pc.capacity) stats.overflowSubsteps += 1u;
    stats.detections += 1u;
}
