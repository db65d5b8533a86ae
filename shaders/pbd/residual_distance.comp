#version 460
// Residual tracking, first pass: |C| = ||p0 - p1| - d| of every distance
// constraint at the predicted positions, summed per workgroup in a fixed
// tree order into partials[group] (reduce/sum_partials.comp finishes the sum).
#include "shared/kernel.glsl"
#include "pbd/pbd_types.h"
#include "shared/interaction_types.h"

layout(push_constant) uniform Push { ResidualPush pc; };
layout(std430, binding = 0) readonly buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 1) readonly buffer Constraints { DistanceConstraint constraints[]; };
layout(std430, binding = 2) writeonly buffer Partials { float partials[]; };

#include "reduce/workgroup_sum.glsl"

void main() {
    uint j = gl_GlobalInvocationID.x;
    float term = 0.0;
    if (j < pc.count) {
        DistanceConstraint c = constraints[pc.first + j];
        // A torn constraint (restLength < 0) holds nothing.
        if (c.restLength >= 0.0) term = abs(distance(predicted[c.p0].xyz, predicted[c.p1].xyz) - c.restLength);
    }
    uint l = gl_LocalInvocationID.x;
    float total = workgroupSum(term);
    if (l == 0) partials[gl_WorkGroupID.x] = total;
}
