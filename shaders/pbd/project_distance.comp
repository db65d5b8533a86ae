#version 460
// docs/physics.md §1: distance constraints of one colour (no two share a particle), or the overflow group.
#include "shared/kernel.glsl"
#include "pbd/pbd_types.h"
#include "pbd/pbd_constraints.glsl"

layout(push_constant) uniform Push { ProjectPush pc; };
layout(std430, binding = 0) buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 1) readonly buffer Constraints { DistanceConstraint distanceConstraints[]; };
layout(std430, binding = 2) readonly buffer Materials { ConstraintMaterial materials[]; };
layout(std430, binding = 3) buffer Lambdas { float distanceLambdas[]; };
DistanceConstraint distanceConstraint(uint j) { return distanceConstraints[j]; }
ConstraintMaterial material(uint m) { return materials[m]; }
vec4 loadParticle(uint i) { return predicted[i]; }
void storeParticle(uint i, vec4 p) { predicted[i] = p; }
#include "pbd/project_distance.glsl"

void project(uint j) { projectDistance(j, pc.iteration, pc.dt); }

#include "pbd/project_range.glsl"
