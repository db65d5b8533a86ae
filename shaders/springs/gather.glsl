// The per-particle gathers of the mass-spring passes (docs/physics.md §9):
// the internal force on particle i, summed over its incident springs,
// hinges and quadratic bending entries in the fixed order of its incidence
// lists (no atomics: every element is evaluated once per vertex it moves).
// The including pass defines `vec3 elementPosition(uint j)`, where it
// evaluates the other particles, and MS_TOPOLOGY_BINDING, the first of the
// topology bindings below (bindings must be 0..n-1, so they follow the
// pass's own): particles, springs, spring incidence, quadratic entries, and
// with MS_WITH_HINGES (the explicit force pass only; the implicit methods
// have no dihedral bending) hinges and hinge incidence.
#include "springs/spring_types.h"
#include "springs/spring_math.glsl"

layout(std430, binding = MS_TOPOLOGY_BINDING + 0) readonly buffer Particles { MsParticle msParticles[]; };
layout(std430, binding = MS_TOPOLOGY_BINDING + 1) readonly buffer Springs { MsSpring springs[]; };
layout(std430, binding = MS_TOPOLOGY_BINDING + 2) readonly buffer IncidentSprings { MsIncidentSpring incidentSprings[]; };
layout(std430, binding = MS_TOPOLOGY_BINDING + 3) readonly buffer Quadratic { MsQuadraticEntry quadratic[]; };
#ifdef MS_WITH_HINGES
layout(std430, binding = MS_TOPOLOGY_BINDING + 4) readonly buffer Hinges { MsHinge hinges[]; };
layout(std430, binding = MS_TOPOLOGY_BINDING + 5) readonly buffer IncidentHinges { uint incidentHinges[]; };
#endif

vec3 elementPosition(uint j);

// The springs of particle i at x_i, summed in incidence order: their force
// on i, their energy and d^2E/dx_i^2 (what vertex block descent and the
// energy pass need; the Newton assembly also writes each spring's
// off-diagonal block, so it runs its own loop).
SpringTerms springSums(uint i, MsParticle particle, vec3 xi) {
    SpringTerms sum = SpringTerms(vec3(0.0), 0.0, mat3(0.0));
    for (uint k = particle.firstSpring; k < particle.firstSpring + particle.springCount; ++k) {
        MsSpring s = springs[incidentSprings[k].spring];
        if (s.stiffness == 0.0) continue;
        uint other = s.i == i ? s.j : s.i;
        SpringTerms t = springTerms(xi, elementPosition(other), s.restLength, s.stiffness, s.compressionScale, s.slack);
        sum.force += t.force;
        sum.energy += t.energy;
        sum.hessian += t.hessian;
    }
    return sum;
}

// Quadratic bending's force on i, -sum_j Q_ij x_j, and its diagonal Q_ii.
vec3 quadraticForce(uint i, MsParticle particle, vec3 xi) {
    vec3 f = vec3(0.0);
    for (uint k = particle.firstQuadratic; k < particle.firstQuadratic + particle.quadraticCount; ++k) {
        MsQuadraticEntry q = quadratic[k];
        if (q.value != 0.0) f -= q.value * (q.column == i ? xi : elementPosition(q.column));
    }
    return f;
}

float quadraticDiagonal(uint i, MsParticle particle) {
    float d = 0.0;
    for (uint k = particle.firstQuadratic; k < particle.firstQuadratic + particle.quadraticCount; ++k)
        if (quadratic[k].column == i) d += quadratic[k].value;
    return d;
}

// Springs and quadratic bending: the forces that have an energy.
vec3 conservativeForce(uint i, MsParticle particle, vec3 xi) {
    return springSums(i, particle, xi).force + quadraticForce(i, particle, xi);
}

#ifdef MS_WITH_HINGES
// Bridson's dihedral forces (no energy: explicit integrators only).
vec3 hingeForce(MsParticle particle) {
    vec3 f = vec3(0.0);
    for (uint k = particle.firstHinge; k < particle.firstHinge + particle.hingeCount; ++k) {
        uint entry = incidentHinges[k];
        MsHinge h = hinges[entry >> 2];
        if (h.stiffness == 0.0) continue;
        f += dihedralForce(elementPosition(h.v0), elementPosition(h.v1), elementPosition(h.v2), elementPosition(h.v3),
                           h.restAngle, h.stiffness, entry & 3u);
    }
    return f;
}
#endif
