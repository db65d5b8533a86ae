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
#include "shared/spring_types.h"
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

// Springs and quadratic bending: the forces that have an energy.
vec3 conservativeForce(uint i, MsParticle particle, vec3 xi) {
    vec3 f = vec3(0.0);
    for (uint k = particle.firstSpring; k < particle.firstSpring + particle.springCount; ++k) {
        MsSpring s = springs[incidentSprings[k].spring];
        if (s.stiffness == 0.0) continue;
        uint other = s.i == i ? s.j : s.i;
        f += springTerms(xi, elementPosition(other), s.restLength, s.stiffness, s.compressionScale, s.slack).force;
    }
    for (uint k = particle.firstQuadratic; k < particle.firstQuadratic + particle.quadraticCount; ++k) {
        MsQuadraticEntry q = quadratic[k];
        if (q.value != 0.0) f -= q.value * (q.column == i ? xi : elementPosition(q.column));
    }
    return f;
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
