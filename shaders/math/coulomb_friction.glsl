// Coulomb friction with a static and a kinetic coefficient (docs/physics.md
// §3, §11, §14), the one rule every contact applies: the particle
// projections against colliders, the contact pairs between objects and the
// rigid-body impulses. Shared math: see math/real_glsl.h for the rules; it
// includes nothing.
#ifndef VKSIM_COULOMB_FRICTION_GLSL
#define VKSIM_COULOMB_FRICTION_GLSL

// Whether a contact sticks: the tangential amount that would hold it,
// `stick` (a slip to undo, an impulse that stops the sliding), lies inside
// the static cone of its normal amount, `normal` (the depth pushed out, the
// normal impulse): stick <= mu_s normal (Macklin et al. 2014, §6.1).
bool frictionSticks(real stick, real normal, real muStatic) { return stick <= muStatic * normal; }

// The tangential amount friction takes away of `stick`: all of it while the
// contact sticks (frictionSticks), else the kinetic mu_k normal, never more
// than stick (friction does not reverse the motion). With mu_s = mu_k it is
// min(stick, mu normal), the single-coefficient rule, bit for bit.
real frictionMagnitude(real stick, real normal, real muStatic, real muKinetic) {
    if (frictionSticks(stick, normal, muStatic)) return stick;
    return min(stick, muKinetic * normal);
}

#endif
