#version 460
// docs/physics.md §1: distance constraints of one colour (no two share a particle), or the overflow group.
#include "shared/kernel.glsl"
#include "pbd/pbd_constraints.glsl"

layout(push_constant) uniform Push { ProjectPush pc; };
layout(std430, binding = 0) buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 1) readonly buffer Constraints { DistanceConstraint constraints[]; };
layout(std430, binding = 2) readonly buffer Materials { ConstraintMaterial materials[]; };
layout(std430, binding = 3) buffer Lambdas { float lambdas[]; };

void project(uint j) {
    DistanceConstraint c = constraints[j];
    ConstraintMaterial m = materials[c.material];
    vec4 p0 = predicted[c.p0];
    vec4 p1 = predicted[c.p1];
    float lambda = pc.iteration == 0u ? 0.0 : lambdas[j];
    PairCorrection r = solveDistance(p0.xyz, p0.w, p1.xyz, p1.w, c.restLength, m.mode, m.stiffness,
                                     m.compliance, pc.iterations, pc.dt, lambda);
    predicted[c.p0] = vec4(p0.xyz + r.dp0, p0.w);
    predicted[c.p1] = vec4(p1.xyz + r.dp1, p1.w);
    lambdas[j] = lambda + r.dLambda;
}

#include "pbd/project_range.glsl"
