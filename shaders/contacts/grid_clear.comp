#version 460
// Contact grid, pass 1: every bucket's count and fill cursor to zero.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) writeonly buffer BucketCounts { uint bucketCounts[]; };
layout(std430, binding = 1) writeonly buffer BucketFill { uint bucketFill[]; };

void main() {
    uint b = gl_GlobalInvocationID.x;
    if (b > pc.tableMask) return;
    bucketCounts[b] = 0u;
    bucketFill[b] = 0u;
}
