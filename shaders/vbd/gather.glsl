// The per-vertex gather of the VBD passes (docs/physics.md §16): the
// elastic terms of vertex i's incident tetrahedra, summed in the fixed order
// of its incidence list (no atomics: each tet is evaluated once per vertex
// it moves). The including pass defines `vec3 elementPosition(uint j)`,
// where it reads the other vertices, and VBD_TOPOLOGY_BINDING, the first of
// the four topology bindings below (after the pass's own).
#include "shared/elastic_types.h"
#include "vbd/vbd_types.h"
#include "math/svd3.glsl"
#include "math/elastic_energy.glsl"
#include "vbd/vbd_math.glsl"

layout(std430, binding = VBD_TOPOLOGY_BINDING + 0) readonly buffer Vertices { VbdVertex vbdVertices[]; };
layout(std430, binding = VBD_TOPOLOGY_BINDING + 1) readonly buffer IncidentTets { uint incidentTets[]; };
layout(std430, binding = VBD_TOPOLOGY_BINDING + 2) readonly buffer Tets { VbdTet tets[]; };
layout(std430, binding = VBD_TOPOLOGY_BINDING + 3) readonly buffer Materials { ElasticMaterialRow materials[]; };

vec3 elementPosition(uint j);

// Sum over the incident tets of vertex i (local index r) with x_i at xi.
VbdTetTerms vertexElasticTerms(uint r, uint i, vec3 xi) {
    VbdVertex v = vbdVertices[r];
    VbdTetTerms sum = VbdTetTerms(0.0, vec3(0.0), mat3(0.0));
    for (uint k = v.firstTet; k < v.firstTet + v.tetCount; ++k) {
        uint entry = incidentTets[k];
        VbdTet t = tets[entry >> 2];
        uint role = entry & 3u;
        vec3 x0 = role == 0u ? xi : elementPosition(t.particles.x);
        vec3 x1 = role == 1u ? xi : elementPosition(t.particles.y);
        vec3 x2 = role == 2u ? xi : elementPosition(t.particles.z);
        vec3 x3 = role == 3u ? xi : elementPosition(t.particles.w);
        mat3 F = tetDeformation(x0, x1, x2, x3, t.g1.xyz, t.g2.xyz, t.g3.xyz);
        ElasticMaterialRow m = materials[t.material];
        VbdTetTerms terms =
            tetVertexTerms(m.model, F, tetVertexRow(role, t.g1.xyz, t.g2.xyz, t.g3.xyz), t.volume, m.mu, m.lambda);
        sum.energy += terms.energy;
        sum.gradient += terms.gradient;
        sum.hessian += terms.hessian;
    }
    return sum;
}
