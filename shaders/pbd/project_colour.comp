#version 460
// docs/physics.md §1, "One colouring across the families": one colour of
// every family at once (no two of its constraints share a particle, whatever
// their families), or the overflow groups walked in order by one thread,
// distance, bending, attachments, then tetrahedra. Invocation t projects entry t of each
// family's share, so a dispatch is as wide as its largest share.
//
// One loop per family, its bounds chosen per dispatch
// (pbd/invocation_share.glsl, as pbd/project_range.glsl does for one
// family): each projection is compiled once, and a family with
// nothing in this colour costs a comparison, not a masked projection (a CPU
// driver runs both sides of an `if`).
#include "shared/kernel.glsl"
#include "pbd/pbd_types.h"
#include "shared/elastic_types.h"
#include "pbd/pbd_constraints.glsl"

layout(push_constant) uniform Push { ColourPush pc; };
layout(std430, binding = 0) buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 1) readonly buffer Distance { DistanceConstraint distanceConstraints[]; };
layout(std430, binding = 2) readonly buffer Bending { BendingConstraint bendingConstraints[]; };
layout(std430, binding = 3) readonly buffer Attachments { AttachmentConstraint attachments[]; };
layout(std430, binding = 4) readonly buffer Materials { ConstraintMaterial materials[]; };
layout(std430, binding = 5) buffer DistanceLambdas { float distanceLambdas[]; };
layout(std430, binding = 6) buffer BendingLambdas { float bendingLambdas[]; };
layout(std430, binding = 7) buffer AttachmentLambdas { float attachmentLambdas[]; };
// The tetrahedron buffer (project_tetrahedron.comp): records and rows, then
// the same buffer for the multipliers.
layout(std430, binding = 8) readonly buffer Tetrahedra { TetrahedronConstraint tetrahedra[]; };
layout(std430, binding = 8) readonly buffer ElasticRows { ElasticMaterialRow elasticRows[]; };
layout(std430, binding = 9) buffer TetLambdas { float tetLambdas[]; };
TetrahedronConstraint tetrahedronConstraint(uint j) { return tetrahedra[j]; }
ElasticMaterialRow elasticMaterialRow(uint slot) { return elasticRows[slot]; }
float tetLambda(uint k) { return tetLambdas[k]; }
void setTetLambda(uint k, float value) { tetLambdas[k] = value; }
DistanceConstraint distanceConstraint(uint j) { return distanceConstraints[j]; }
BendingConstraint bendingConstraint(uint j) { return bendingConstraints[j]; }
AttachmentConstraint attachmentConstraint(uint j) { return attachments[j]; }
ConstraintMaterial material(uint m) { return materials[m]; }
vec4 loadParticle(uint i) { return predicted[i]; }
void storeParticle(uint i, vec4 p) { predicted[i] = p; }
#include "pbd/project_distance.glsl"
#include "pbd/project_bending.glsl"
#include "pbd/project_attachment.glsl"
#include "pbd/project_tetrahedron.glsl"

#include "pbd/invocation_share.glsl"

void main() {
    uint t = gl_GlobalInvocationID.x;
    bool serial = pc.serial != 0u;
    uvec2 d = invocationShare(t, pc.count[kPbdFamilyDistance], serial);
    for (uint k = d.x; k < d.y; ++k) projectDistance(pc.first[kPbdFamilyDistance] + k, pc.iteration, pc.dt);
    uvec2 b = invocationShare(t, pc.count[kPbdFamilyBending], serial);
    for (uint k = b.x; k < b.y; ++k) projectBending(pc.first[kPbdFamilyBending] + k, pc.iteration, pc.dt);
    uvec2 a = invocationShare(t, pc.count[kPbdFamilyAttachment], serial);
    for (uint k = a.x; k < a.y; ++k) projectAttachment(pc.first[kPbdFamilyAttachment] + k, pc.iteration, pc.dt);
    uvec2 e = invocationShare(t, pc.count[kPbdFamilyTetrahedron], serial);
    for (uint k = e.x; k < e.y; ++k) projectTetrahedron(pc.first[kPbdFamilyTetrahedron] + k, pc.iteration, pc.dt);
}
