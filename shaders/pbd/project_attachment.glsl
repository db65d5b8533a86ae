// Projection of attachment j, a particle to a fixed point or a tether (docs/physics.md §1),
// written once for the per-colour kernel (project_attachment.comp) and the
// workgroup solve (solve_in_workgroup.glsl). The includer declares
// `attachmentLambdas[]` and the accessors `attachmentConstraint(j)`,
// `material(m)`, `loadParticle` and `storeParticle` (see project_distance.glsl).
#include "pbd/xpbd_families.glsl"

void projectAttachment(uint j, uint iteration, float dt) {
    AttachmentConstraint c = attachmentConstraint(j);
    ConstraintMaterial m = material(c.material);
    vec4 p = loadParticle(c.particle);
    // Only XPBD moves its multiplier (see project_distance.glsl).
    const uint mode = projectionMode(kXpbdFamilyAttachment, m);
    const bool xpbd = mode == kModeXpbd;
    float lambda = xpbd && iteration != 0u ? attachmentLambdas[j] : 0.0;
    PointCorrection r = solveAttachment(p.xyz, p.w, c.target.xyz, c.maxDistance, mode, m.iterationStiffness,
                                        m.compliance, dt, lambda);
    storeParticle(c.particle, vec4(p.xyz + r.dp, p.w));
    if (xpbd) attachmentLambdas[j] = lambda + r.dLambda;
}
