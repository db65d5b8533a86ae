#version 460
// docs/physics.md §1: isometric bending constraints of one colour, or the overflow group.
#include "shared/kernel.glsl"
#include "pbd/pbd_constraints.glsl"

layout(push_constant) uniform Push { ProjectPush pc; };
layout(std430, binding = 0) buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 1) readonly buffer Constraints { BendingConstraint constraints[]; };
layout(std430, binding = 2) readonly buffer Materials { ConstraintMaterial materials[]; };
layout(std430, binding = 3) buffer Lambdas { float lambdas[]; };

void project(uint j) {
    BendingConstraint c = constraints[j];
    ConstraintMaterial m = materials[c.material];
    vec4 p0 = predicted[c.particles.x];
    vec4 p1 = predicted[c.particles.y];
    vec4 p2 = predicted[c.particles.z];
    vec4 p3 = predicted[c.particles.w];
    float lambda = pc.iteration == 0u ? 0.0 : lambdas[j];
    QuadCorrection r = solveIsometricBending(p0.xyz, p0.w, p1.xyz, p1.w, p2.xyz, p2.w, p3.xyz, p3.w,
                                             c.K, c.scale, m.mode, m.stiffness, m.compliance,
                                             pc.iterations, pc.dt, lambda);
    predicted[c.particles.x] = vec4(p0.xyz + r.dp0, p0.w);
    predicted[c.particles.y] = vec4(p1.xyz + r.dp1, p1.w);
    predicted[c.particles.z] = vec4(p2.xyz + r.dp2, p2.w);
    predicted[c.particles.w] = vec4(p3.xyz + r.dp3, p3.w);
    lambdas[j] = lambda + r.dLambda;
}

#include "pbd/project_range.glsl"
