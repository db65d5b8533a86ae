#version 460
// Contact grid, pass 5: each bucket's particles in ascending order. A
// particle's rank in its bucket is the number of particles of the bucket
// with a smaller index: the same whatever slots grid_fill.comp handed out,
// so the grid is a stable counting sort by bucket, and deterministic.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer BucketOf { uint bucketOf[]; };
layout(std430, binding = 1) readonly buffer BucketStart { uint bucketStart[]; };
layout(std430, binding = 2) readonly buffer BucketFill { uint bucketFill[]; };  // = the bucket's count
layout(std430, binding = 3) readonly buffer Unordered { uint unordered[]; };
layout(std430, binding = 4) writeonly buffer Sorted { uint sorted[]; };

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count) return;
    uint bucket = bucketOf[k];
    uint start = bucketStart[bucket];
    uint rank = 0u;
    for (uint s = start; s < start + bucketFill[bucket]; ++s) rank += unordered[s] < k ? 1u : 0u;
    sorted[start + rank] = k;
}
