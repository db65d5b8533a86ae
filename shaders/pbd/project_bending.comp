#version 460
// docs/physics.md §1: isometric bending constraints of one colour, or the overflow group.
#include "shared/kernel.glsl"
#include "pbd/pbd_types.h"
#include "pbd/pbd_constraints.glsl"

layout(push_constant) uniform Push { ProjectPush pc; };
layout(std430, binding = 0) buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 1) readonly buffer Constraints { BendingConstraint bendingConstraints[]; };
layout(std430, binding = 2) readonly buffer Materials { ConstraintMaterial materials[]; };
layout(std430, binding = 3) buffer Lambdas { float bendingLambdas[]; };
BendingConstraint bendingConstraint(uint j) { return bendingConstraints[j]; }
ConstraintMaterial material(uint m) { return materials[m]; }
vec4 loadParticle(uint i) { return predicted[i]; }
void storeParticle(uint i, vec4 p) { predicted[i] = p; }
#include "pbd/project_bending.glsl"

void project(uint j) { projectBending(j, pc.iteration, pc.dt); }

#include "pbd/project_range.glsl"
