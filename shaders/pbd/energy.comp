#version 460
// Energy tracking, first pass for XPBD: the objective one substep's
// iterations approach (Macklin et al. 2016, the implicit Euler step),
// at the current predicted positions p:
//
//   g(p) = sum_i m_i/(2 h^2) |p_i - x~_i|^2     inertia, free PBD particles
//        + sum_j C_j(p)^2 / (2 alpha_j)          every constraint, compliance alpha_j
//        + sum_e V_e Psi(F_e)                    every tetrahedron of an XPBD solid
//
// (a tetrahedron's two constraints sum to V Psi up to a constant,
// pbd/tet_constraints.glsl; the energy itself, zero at rest, is reported.)
// with x~ = x + h v (as predict.comp forms it). Defined only when every
// constraint is XPBD with alpha > 0 (PbdSolver records this pass only
// then); a PBD-mode or zero-compliance constraint would add 0 here. The
// collisions (hard inequalities, satisfied after their projection) and
// the mouse attachment are not part of it; a dragged particle, inverse mass
// 0 in p while held, adds no inertia. Summed per workgroup in a fixed tree
// order into partials[group] (reduce/sum_partials.comp adds the groups) [J].
#include "shared/kernel.glsl"
#include "pbd/pbd_types.h"
#include "shared/interaction_types.h"
#include "shared/elastic_types.h"
#include "pbd/pbd_constraints.glsl"
#include "math/svd3.glsl"
#include "math/elastic_energy.glsl"
#include "pbd/tet_constraints.glsl"

layout(push_constant) uniform Push { PbdEnergyPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 2) readonly buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 3) readonly buffer Distance { DistanceConstraint distanceConstraints[]; };
layout(std430, binding = 4) readonly buffer Bending { BendingConstraint bendingConstraints[]; };
layout(std430, binding = 5) readonly buffer Attachments { AttachmentConstraint attachmentConstraints[]; };
layout(std430, binding = 6) readonly buffer Materials { ConstraintMaterial materials[]; };
layout(std430, binding = 7) writeonly buffer Partials { float partials[]; };
// The tetrahedron buffer (solvers/pbd/pbd_constraints.h): records, then rows.
layout(std430, binding = 8) readonly buffer Tetrahedra { TetrahedronConstraint tetrahedra[]; };
layout(std430, binding = 8) readonly buffer ElasticRows { ElasticMaterialRow elasticRows[]; };

#include "reduce/workgroup_sum.glsl"

// C^2 / (2 alpha) for an XPBD material, else 0.
float constraintEnergy(float C, uint material) {
    ConstraintMaterial m = materials[material];
    return m.mode == kModeXpbd && m.compliance > 0.0 ? C * C / (2.0 * m.compliance) : 0.0;
}

void main() {
    uint t = gl_GlobalInvocationID.x;
    float term = 0.0;
    uint bendingFirst = pc.particleCount + pc.distanceCount;
    uint attachmentFirst = bendingFirst + pc.bendingCount;
    uint tetrahedronFirst = attachmentFirst + pc.attachmentCount;
    if (t < pc.particleCount) {
        vec4 p = predicted[t];
        if (p.w > 0.0) {
            vec3 x = positions[t].xyz - vec3(pc.originX, pc.originY, pc.originZ);  // p is relative to the origin
            vec3 d = p.xyz - (x + pc.dt * velocities[t].xyz);
            term = dot(d, d) / (2.0 * p.w * pc.dt * pc.dt);
        }
    } else if (t < bendingFirst) {
        DistanceConstraint c = distanceConstraints[t - pc.particleCount];
        // A torn constraint (restLength < 0) has no energy.
        if (c.restLength >= 0.0) term = constraintEnergy(distance(predicted[c.p0].xyz, predicted[c.p1].xyz) - c.restLength, c.material);
    } else if (t < attachmentFirst) {
        BendingConstraint c = bendingConstraints[t - bendingFirst];
        vec3 e = isometricBendingVector(predicted[c.particles.x].xyz, predicted[c.particles.y].xyz,
                                        predicted[c.particles.z].xyz, predicted[c.particles.w].xyz, c.K);
        if (c.scale >= 0.0) term = constraintEnergy(0.5 * c.scale * dot(e, e), c.material);  // < 0: torn
    } else if (t < attachmentFirst + pc.attachmentCount) {
        AttachmentConstraint c = attachmentConstraints[t - attachmentFirst];
        // A tether (maxDistance > 0) is one-sided: no energy within its length.
        float d = distance(predicted[c.particle].xyz, c.target.xyz);
        term = constraintEnergy(max(d - c.maxDistance, 0.0), c.material);
    } else if (t < tetrahedronFirst + pc.tetrahedronCount) {
        TetrahedronConstraint c = tetrahedra[t - tetrahedronFirst];
        ElasticMaterialRow m = elasticRows[c.elasticRow];
        term = tetElasticEnergy(predicted[c.particles.x].xyz, predicted[c.particles.y].xyz,
                                predicted[c.particles.z].xyz, predicted[c.particles.w].xyz, c.g1.xyz, c.g2.xyz,
                                c.g3.xyz, c.g1.w, m.model, m.mu, m.lambda);
    }
    uint l = gl_LocalInvocationID.x;
    float total = workgroupSum(term);
    if (l == 0) partials[gl_WorkGroupID.x] = total;
}
