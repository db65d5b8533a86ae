// Projection of isometric bending constraint j (docs/physics.md §1), written
// once for the per-colour kernel (project_bending.comp) and the workgroup
// solve (solve_in_workgroup.glsl). The includer declares `bendingLambdas[]`
// and the accessors `bendingConstraint(j)`, `material(m)`, `loadParticle`
// and `storeParticle` (see project_distance.glsl).
#include "pbd/xpbd_families.glsl"

void projectBending(uint j, uint iteration, float dt) {
    BendingConstraint c = bendingConstraint(j);
    ConstraintMaterial m = material(c.material);
    vec4 p0 = loadParticle(c.particles.x);
    vec4 p1 = loadParticle(c.particles.y);
    vec4 p2 = loadParticle(c.particles.z);
    vec4 p3 = loadParticle(c.particles.w);
    // Only XPBD moves its multiplier (see project_distance.glsl).
    const uint mode = projectionMode(kXpbdFamilyBending, m);
    const bool xpbd = mode == kModeXpbd;
    float lambda = xpbd && iteration != 0u ? bendingLambdas[j] : 0.0;
    QuadCorrection r = solveIsometricBending(p0.xyz, p0.w, p1.xyz, p1.w, p2.xyz, p2.w, p3.xyz, p3.w,
                                             c.K, c.scale, mode, m.iterationStiffness, m.compliance, dt,
                                             lambda);
    storeParticle(c.particles.x, vec4(p0.xyz + r.dp0, p0.w));
    storeParticle(c.particles.y, vec4(p1.xyz + r.dp1, p1.w));
    storeParticle(c.particles.z, vec4(p2.xyz + r.dp2, p2.w));
    storeParticle(c.particles.w, vec4(p3.xyz + r.dp3, p3.w));
    if (xpbd) bendingLambdas[j] = lambda + r.dLambda;
}
