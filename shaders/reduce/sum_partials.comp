#version 460
// Residual tracking, second pass, one workgroup: thread l sums partials
// l, l + 64, l + 128, ... in order, then a shared-memory tree sums the 64;
// results[resultIndex] = scale * sum (or scale * sqrt(sum)). The order is
// fixed, so the result is deterministic (no float atomics).
#include "shared/kernel.glsl"
#include "shared/interaction_types.h"

layout(push_constant) uniform Push { SumPartialsPush pc; };
layout(std430, binding = 0) readonly buffer Partials { float partials[]; };
layout(std430, binding = 1) buffer Results { float results[]; };

#include "reduce/workgroup_sum.glsl"

void main() {
    uint l = gl_LocalInvocationID.x;
    float sum = 0.0;
    for (uint k = l; k < pc.partialCount; k += kWorkgroupSize) sum += partials[k];
    float total = workgroupSum(sum);
    if (l == 0) results[pc.resultIndex] = pc.scale * (pc.takeSqrt != 0u ? sqrt(total) : total);
}
