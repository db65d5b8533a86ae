#version 460
// Contact grid, pass 4 (after the scan of the counts into each bucket's
// first slot): each particle takes a slot in its bucket. Which slot depends
// on the order the GPU runs in; grid_order.comp then fixes it.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer BucketOf { uint bucketOf[]; };
layout(std430, binding = 1) readonly buffer BucketStart { uint bucketStart[]; };
layout(std430, binding = 2) buffer BucketFill { uint bucketFill[]; };
layout(std430, binding = 3) writeonly buffer Unordered { uint unordered[]; };

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count) return;
    uint bucket = bucketOf[k];
    unordered[bucketStart[bucket] + atomicAdd(bucketFill[bucket], 1u)] = k;
}
