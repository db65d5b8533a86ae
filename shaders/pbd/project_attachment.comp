#version 460
// docs/physics.md §1: attachments of particles to fixed points, one colour or the overflow group.
#include "shared/kernel.glsl"
#include "pbd/pbd_constraints.glsl"

layout(push_constant) uniform Push { ProjectPush pc; };
layout(std430, binding = 0) buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 1) readonly buffer Constraints { AttachmentConstraint constraints[]; };
layout(std430, binding = 2) readonly buffer Materials { ConstraintMaterial materials[]; };
layout(std430, binding = 3) buffer Lambdas { float lambdas[]; };

void project(uint j) {
    AttachmentConstraint c = constraints[j];
    ConstraintMaterial m = materials[c.material];
    vec4 p = predicted[c.particle];
    float lambda = pc.iteration == 0u ? 0.0 : lambdas[j];
    PointCorrection r = solveAttachment(p.xyz, p.w, c.target.xyz, m.mode, m.stiffness, m.compliance,
                                        pc.iterations, pc.dt, lambda);
    predicted[c.particle] = vec4(p.xyz + r.dp, p.w);
    lambdas[j] = lambda + r.dLambda;
}

#include "pbd/project_range.glsl"
