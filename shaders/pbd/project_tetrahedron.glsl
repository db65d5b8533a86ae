// Projection of tetrahedron j of an XPBD solid (docs/physics.md §16, "XPBD for solids"),
// written once for the per-colour kernels (project_tetrahedron.comp,
// project_colour.comp) and the workgroup solve (solve_in_workgroup.glsl).
// The includer declares the accessors: `tetrahedronConstraint(j)`,
// `elasticMaterialRow(slot)` (the record's elasticRow), `tetLambda(k)` and
// `setTetLambda(k, value)` (the record's lambda and lambda + 1),
// `material(m)`, `loadParticle` and `storeParticle` (see
// project_distance.glsl). Both multipliers restart from 0 at every
// substep's first iteration, as the other families' XPBD ones.
#include "shared/elastic_types.h"
#include "math/svd3.glsl"
#include "math/elastic_energy.glsl"
#include "pbd/tet_constraints.glsl"

void projectTetrahedron(uint j, uint iteration, float dt) {
    TetrahedronConstraint c = tetrahedronConstraint(j);
    ElasticMaterialRow m = elasticMaterialRow(c.elasticRow);
    vec4 p0 = loadParticle(c.particles.x);
    vec4 p1 = loadParticle(c.particles.y);
    vec4 p2 = loadParticle(c.particles.z);
    vec4 p3 = loadParticle(c.particles.w);
    float lambdaD = iteration != 0u ? tetLambda(c.lambda) : 0.0;
    float lambdaH = iteration != 0u ? tetLambda(c.lambda + 1u) : 0.0;
    // A negative stiffness: no PBD volume constraint (solveTetrahedron).
    float volumeStiffness = -1.0;
    if (c.volumeMaterial != kNoVolumeConstraint) volumeStiffness = material(c.volumeMaterial).iterationStiffness;
    TetProjection r = solveTetrahedron(p0.xyz, p0.w, p1.xyz, p1.w, p2.xyz, p2.w, p3.xyz, p3.w, c.g1.xyz, c.g2.xyz,
                                       c.g3.xyz, c.g1.w, m.model, m.mu, m.lambda, volumeStiffness, dt, lambdaD,
                                       lambdaH);
    storeParticle(c.particles.x, vec4(r.x0, p0.w));
    storeParticle(c.particles.y, vec4(r.x1, p1.w));
    storeParticle(c.particles.z, vec4(r.x2, p2.w));
    storeParticle(c.particles.w, vec4(r.x3, p3.w));
    setTetLambda(c.lambda, r.lambdaDeviatoric);
    setTetLambda(c.lambda + 1u, r.lambdaHydrostatic);
}
