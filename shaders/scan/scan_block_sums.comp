#version 460
// Exclusive prefix scan, pass 2 of 3, one workgroup: the blocks' totals
// scanned in place, kScanBlock at a time with a running carry, and the total
// of every value written to totals[totalIndex].
#extension GL_GOOGLE_include_directive : require
#include "scan/scan_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ScanPush pc; };
layout(std430, binding = 0) buffer BlockSums { uint blockSums[]; };
layout(std430, binding = 1) buffer Totals { uint totals[]; };

shared uint sums[64];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint carry = 0u;
    for (uint chunk = 0u; chunk < pc.blockCount; chunk += kScanBlock) {
        uint first = chunk + 4u * l;
        uint v[4];
        uint own = 0u;
        for (uint e = 0u; e < 4u; ++e) {
            v[e] = first + e < pc.blockCount ? blockSums[first + e] : 0u;
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
        uint running = carry + sums[l] - own;
        for (uint e = 0u; e < 4u; ++e) {
            if (first + e < pc.blockCount) blockSums[first + e] = running;
            running += v[e];
        }
        carry += sums[63];
        barrier();  // sums[] is rewritten by the next chunk
    }
    if (l == 0u) totals[pc.totalIndex] = carry;
}
