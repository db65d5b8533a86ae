#version 460
// docs/physics.md §16, "XPBD for solids": tetrahedra of XPBD solids of one colour (no two
// share a particle), or the overflow group.
#include "shared/kernel.glsl"
#include "pbd/pbd_types.h"
#include "shared/elastic_types.h"
#include "pbd/pbd_constraints.glsl"

layout(push_constant) uniform Push { ProjectPush pc; };
layout(std430, binding = 0) buffer Predicted { vec4 predicted[]; };
// The tetrahedron buffer (solvers/pbd/pbd_constraints.h): records and
// elastic rows through binding 1, the multipliers through binding 3, the
// same buffer (PbdConstraints::lambdas).
layout(std430, binding = 1) readonly buffer Tetrahedra { TetrahedronConstraint tetrahedra[]; };
layout(std430, binding = 1) readonly buffer ElasticRows { ElasticMaterialRow elasticRows[]; };
layout(std430, binding = 2) readonly buffer Materials { ConstraintMaterial materials[]; };
layout(std430, binding = 3) buffer Lambdas { float tetLambdas[]; };
TetrahedronConstraint tetrahedronConstraint(uint j) { return tetrahedra[j]; }
ElasticMaterialRow elasticMaterialRow(uint slot) { return elasticRows[slot]; }
float tetLambda(uint k) { return tetLambdas[k]; }
void setTetLambda(uint k, float value) { tetLambdas[k] = value; }
ConstraintMaterial material(uint m) { return materials[m]; }
vec4 loadParticle(uint i) { return predicted[i]; }
void storeParticle(uint i, vec4 p) { predicted[i] = p; }
#include "pbd/project_tetrahedron.glsl"

void project(uint j) { projectTetrahedron(j, pc.iteration, pc.dt); }

#include "pbd/project_range.glsl"
