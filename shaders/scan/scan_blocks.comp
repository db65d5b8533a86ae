#version 460
// Exclusive prefix scan, pass 1 of 3 (engine/step/prefix_scan.h): each
// workgroup scans its block of kScanBlock values in place (thread l holds
// values 4l..4l+3, a shared-memory Hillis-Steele scan adds the threads'
// sums) and writes the block's total to blockSums.
#extension GL_GOOGLE_include_directive : require
#include "scan/scan_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ScanPush pc; };
layout(std430, binding = 0) buffer Values { uint values[]; };
layout(std430, binding = 1) writeonly buffer BlockSums { uint blockSums[]; };

shared uint sums[64];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint first = gl_WorkGroupID.x * kScanBlock + 4u * l;
    uint v[4];
    uint own = 0u;
    for (uint e = 0u; e < 4u; ++e) {
        v[e] = first + e < pc.count ? values[first + e] : 0u;
        own += v[e];
    }
    sums[l] = own;
    barrier();
    for (uint stride = 1u; stride < 64u; stride *= 2u) {
        uint add = l >= stride ? sums[l - stride] : 0u;
        barrier();
        sums[l] += add;
        barrier();
    }
    uint running = sums[l] - own;  // exclusive: what the threads before l hold
    for (uint e = 0u; e < 4u; ++e) {
        if (first + e < pc.count) values[first + e] = running;
        running += v[e];
    }
    if (l == 63u) blockSums[gl_WorkGroupID.x] = sums[63];
}
