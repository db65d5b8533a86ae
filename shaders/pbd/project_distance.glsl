// Projection of distance constraint j (docs/physics.md §1), written once for
// the per-colour kernel (project_distance.comp) and the workgroup solve
// (solve_in_workgroup.glsl). The includer declares `distanceLambdas[]` and
// the accessors: `DistanceConstraint distanceConstraint(uint j)`,
// `ConstraintMaterial material(uint m)`, and for the particles
// `vec4 loadParticle(uint i)` (xyz, inverse mass in w) and
// `void storeParticle(uint i, vec4 p)`. (Records are read through accessors
// so that the CPU cluster sweep can read them as texels: see
// pbd/cluster_sweep_cpu.comp.)
#include "pbd/xpbd_families.glsl"

void projectDistance(uint j, uint iteration, float dt) {
    DistanceConstraint c = distanceConstraint(j);
    ConstraintMaterial m = material(c.material);
    vec4 p0 = loadParticle(c.p0);
    vec4 p1 = loadParticle(c.p1);
    // Only XPBD reads its multiplier (constraintDeltaLambda), so PBD neither
    // loads nor stores it; every substep's first iteration starts from 0, so a
    // material switched to XPBD never reads a stale one.
    const uint mode = projectionMode(kXpbdFamilyDistance, m);
    const bool xpbd = mode == kModeXpbd;
    float lambda = xpbd && iteration != 0u ? distanceLambdas[j] : 0.0;
    PairCorrection r = solveDistance(p0.xyz, p0.w, p1.xyz, p1.w, c.restLength, mode, m.iterationStiffness,
                                     m.compliance, dt, lambda);
    storeParticle(c.p0, vec4(p0.xyz + r.dp0, p0.w));
    storeParticle(c.p1, vec4(p1.xyz + r.dp1, p1.w));
    if (xpbd) distanceLambdas[j] = lambda + r.dLambda;
}
