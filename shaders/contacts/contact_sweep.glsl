// One constraint of a colour of the contact-constraint set
// (contact_constraint.glsl), Gauss-Seidel: all its particles moved at once,
// a pair's two or the four of a vertex-triangle or edge-edge constraint.
// No two constraints of a colour share a particle, so a colour's
// constraints may be projected in any order, or side by side. Shared by
// contact_project_colour.comp (on p[]) and the PBD workgroup solve (on its
// shared memory, pbd/workgroup_contacts.glsl): the shader declares what
// triangle_response.glsl reads, constraints[] (uvec2) and
// addContactCorrection(i, d), which moves store particle i by d, before
// including this.
#ifndef VKSIM_CONTACT_SWEEP_GLSL
#define VKSIM_CONTACT_SWEEP_GLSL
#include "contacts/contact_response.glsl"
#include "contacts/triangle_response.glsl"

// Pair constraint c, if the pass over `pairs` (kContactPairs*) takes it.
void projectSweptPair(uint c, uint pairs) {
    uvec2 pair = constraints[c];
    ContactParticle a = particles[pair.x], b = particles[pair.y];
    if (!contactInPass(a, b, pairs)) return;
    vec4 pk = contactWorkingAt(a.particle), pl = contactWorkingAt(b.particle);
    vec3 xk = contactStartAt(a.particle), xl = contactStartAt(b.particle);
    if (!contactActive(pk, pl, xk, xl, a.rest.w + b.rest.w)) return;
    addContactCorrection(a.particle, contactCorrection(a, b, pair.x, pair.y, pk, pl, xk, xl));
    addContactCorrection(b.particle, contactCorrection(b, a, pair.y, pair.x, pl, pk, xl, xk));
}

// Four-particle constraint t (triangleContacts[t]), likewise.
void projectSweptTriangle(uint t, uint pairs) {
    uvec4 k = triangleParticles(t);
    if (!triangleInPass(k, pairs)) return;
    TriangleState s = triangleState(t, k);
    if (!triangleActive(s)) return;
    TriangleCorrection correction = triangleCorrection(s, k);
    for (uint role = 0u; role < 4u; ++role)
        addContactCorrection(particles[k[role]].particle, triangleRoleCorrection(correction, s, role));
}

// Constraint c of the set, its first `pairCount` the pairs.
void projectSweptConstraint(uint c, uint pairCount, uint pairs) {
    if (c < pairCount)
        projectSweptPair(c, pairs);
    else
        projectSweptTriangle(c - pairCount, pairs);
}

#endif
