// docs/physics.md §13: the per-colour path's shape-matching pass, one
// workgroup per group, once per Gauss-Seidel iteration after the
// constraint families. The includer (shape_match_<size>.comp) sets the
// workgroup size, the same as the workgroup solve's on this device, so that
// both paths add the sums by the same tree.
#extension GL_GOOGLE_include_directive : require
#include "shared/sim_types.h"
#include "pbd/pbd_types.h"
#include "math/real_glsl.h"
const uint kSize = gl_WorkGroupSize.x;

layout(push_constant) uniform Push { ProjectPush pc; };
layout(std430, binding = 0) buffer Predicted { vec4 predicted[]; };
// One buffer, read as the groups and as the rest offsets after them.
layout(std430, binding = 1) readonly buffer ShapeMatchGroups { ShapeMatchGroup shapeMatchGroups[]; };
layout(std430, binding = 1) readonly buffer ShapeMatchRest { vec4 shapeMatchRest[]; };

shared vec4 scratch[kSize];
vec4 shapeMatchScratch(uint k) { return scratch[k]; }
void setShapeMatchScratch(uint k, vec4 v) { scratch[k] = v; }
vec4 loadParticle(uint i) { return predicted[i]; }
void storeParticle(uint i, vec4 p) { predicted[i] = p; }

#include "math/svd3.glsl"
#include "pbd/pbd_constraints.glsl"
#include "pbd/shape_matching.glsl"
#include "pbd/project_shape_match.glsl"

void main() { projectShapeMatch(pc.first + gl_WorkGroupID.x, pc.iterations); }
