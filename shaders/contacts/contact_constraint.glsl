// One constraint of the contact-constraint set (docs/physics.md §14): the
// particle pairs first, constraint c < pairCount the pair constraints[c];
// then the four-particle constraints, c the constraint
// triangleContacts[c - pairCount]: the vertex-triangle ones, then the
// edge-edge ones (TriangleContact::kind). Whether a constraint is a pair
// follows from its number; every pass over the set (incidence, colouring,
// sweep, Jacobi average) reads every kind through this. The shader
// declares, before including it, constraints[] (uvec2) and
// triangleContacts[] (TriangleContact).
#ifndef VKSIM_CONTACT_CONSTRAINT_GLSL
#define VKSIM_CONTACT_CONSTRAINT_GLSL

// Whether constraint c is a particle pair (2 particles), else a
// four-particle constraint.
bool contactIsPair(uint c, uint pairCount) { return c < pairCount; }

// The contact particles of constraint c: a pair's two, then
// kNotAContactParticle; or the four of TriangleContact::particles.
uvec4 contactConstraintParticles(uint c, uint pairCount) {
    if (contactIsPair(c, pairCount))
        return uvec4(constraints[c], kNotAContactParticle, kNotAContactParticle);
    return triangleContacts[c - pairCount].particles;
}

// How many particles constraint c has.
uint contactConstraintSize(uint c, uint pairCount) { return contactIsPair(c, pairCount) ? 2u : 4u; }

#endif
