// One constraint of the contact-constraint set (docs/physics.md §14): the
// particle pairs first, constraint c < pairCount the pair constraints[c];
// then the vertex-triangle constraints, c the constraint
// triangleContacts[c - pairCount]. Which kind a constraint is follows from
// its number; every pass over the set (incidence, colouring, sweep, Jacobi
// average) reads both kinds through this. The shader declares, before
// including it, constraints[] (uvec2), triangleContacts[] (TriangleContact)
// and triangles[] (ContactTriangle).
#ifndef VKSIM_CONTACT_CONSTRAINT_GLSL
#define VKSIM_CONTACT_CONSTRAINT_GLSL

// Whether constraint c is a particle pair (2 particles), else a vertex and
// a triangle (4).
bool contactIsPair(uint c, uint pairCount) { return c < pairCount; }

// The contact particles of constraint c: a pair's two, then
// kNotAContactParticle; or the vertex and the triangle's corners.
uvec4 contactConstraintParticles(uint c, uint pairCount) {
    if (contactIsPair(c, pairCount))
        return uvec4(constraints[c], kNotAContactParticle, kNotAContactParticle);
    TriangleContact contact = triangleContacts[c - pairCount];
    ContactTriangle t = triangles[contact.triangle];
    return uvec4(contact.vertex, t.a, t.b, t.c);
}

// How many particles constraint c has.
uint contactConstraintSize(uint c, uint pairCount) { return contactIsPair(c, pairCount) ? 2u : 4u; }

#endif
