// The math of the shared particle stages (prediction and the SDF collision
// projection), used by every solver that steps particles and by the CPU
// reference. Shared math: see math/real_glsl.h for the rules.
#ifndef VKSIM_PARTICLE_MATH_GLSL
#define VKSIM_PARTICLE_MATH_GLSL

// docs/physics.md §1, steps 1-2: v + h g, damped by max(0, 1 - damping h); 0 for a
// pinned particle (inverse mass 0), which does not move. The predicted
// position is x + h times it.
real3 predictedVelocity(real3 v, real inverseMass, real3 gravity, real damping, real dt) {
    if (inverseMass <= real(0)) return real3(0);
    return (v + dt * gravity) * max(real(0), real(1) - damping * dt);
}

// SDF collision, an inequality C = f(p) - thickness >= 0 projected only while
// violated: dp = -C grad f / |grad f|^2 (stiffness 1; the inverse mass cancels
// because only one particle moves).
real3 solveCollision(real C, real3 gradF) {
    real g2 = dot(gradF, gradF);
    if (C >= real(0) || g2 <= real(0)) return real3(0);
    return -C * gradF / g2;
}

#endif
