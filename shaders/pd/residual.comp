#version 460
// Residual tracking, first pass for projective dynamics: per PD particle
// |r_i|^2 of the global system (M/h^2 + L) q = M/h^2 s + f at the current
// iterate q, with r_i exactly as pd/jacobi.comp computes it (difference
// form; f and the absolute diagonal from the gather pass); pinned particles
// add 0. Summed per workgroup in a fixed tree order into partials[group];
// reduce/sum_partials.comp takes the square root of the total: ||r||_2 [N].
#include "shared/kernel.glsl"
#include "shared/interaction_types.h"

layout(push_constant) uniform Push { ResidualPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 2) readonly buffer Rows { PdRow rows[]; };
layout(std430, binding = 3) readonly buffer OffDiagonal { PdOffDiagonal offDiagonal[]; };
layout(std430, binding = 4) readonly buffer Rhs { vec4 rhs[]; };
layout(std430, binding = 5) readonly buffer Current { vec4 current[]; };
layout(std430, binding = 6) writeonly buffer Partials { float partials[]; };

#include "reduce/workgroup_sum.glsl"

void main() {
    uint r = gl_GlobalInvocationID.x;
    float term = 0.0;
    if (r < pc.count) {
        uint i = pc.first + r;
        PdRow row = rows[r];
        if (row.mass != 0.0) {
            vec3 q = current[i].xyz;
            float inertia = row.mass / (pc.dt * pc.dt);
            vec3 s = (positions[i].xyz - vec3(pc.originX, pc.originY, pc.originZ)) + pc.dt * velocities[i].xyz;
            vec4 b = rhs[i];
            vec3 residual = inertia * (s - q) + b.xyz - b.w * q;
            for (uint k = row.offDiagonalFirst; k < row.offDiagonalFirst + row.offDiagonalCount; ++k) {
                PdOffDiagonal a = offDiagonal[k];
                residual += a.value * (q - current[a.column].xyz);
            }
            term = dot(residual, residual);
        }
    }
    uint l = gl_LocalInvocationID.x;
    float total = workgroupSum(term);
    if (l == 0) partials[gl_WorkGroupID.x] = total;
}
