#version 460
// Exclusive prefix scan, pass 3 of 3: each value gets the scanned total of
// the blocks before its own.
#extension GL_GOOGLE_include_directive : require
#include "scan/scan_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ScanPush pc; };
layout(std430, binding = 0) buffer Values { uint values[]; };
layout(std430, binding = 1) readonly buffer BlockSums { uint blockSums[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    values[i] += blockSums[i / kScanBlock];
}
