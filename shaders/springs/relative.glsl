// The implicit mass-spring methods' positions, relative to the solver's
// origin o: the middle particle of the range (by index: about the middle of
// a grid cloth) where the substep starts
// (docs/physics.md §9.2, "Far from the origin"). Near |x| = 1 km a float
// position is rounded to 6.1e-5 m; relative to o, a cloth a few metres across
// is rounded to its own size's ulp, so that the Newton iterate, the line
// search's objective and the velocity (x - x^0)/h the step ends with carry
// no rounding of the world position. Springs and the inertia see only
// differences; quadratic bending's x^T Q x is the same from any origin
// (every row of Q sums to zero).
//
// The including pass declares pc (MsImplicitPush), start[] (the store's x^0,
// w = inverse mass) and velocities[] (predict's u: y = x^0 + h u).
#ifndef VKSIM_SPRINGS_RELATIVE_GLSL
#define VKSIM_SPRINGS_RELATIVE_GLSL

vec3 solverOrigin() { return start[pc.firstParticle + pc.particleCount / 2u].xyz; }

// x^0_i - o.
vec3 relativeStart(uint i) { return start[i].xyz - solverOrigin(); }

// y_i - o, the inertia target: predict's drift x^0 + h u (zero u for a pinned particle).
vec3 relativeInertiaTarget(uint i) { return relativeStart(i) + pc.dt * velocities[i].xyz; }

#endif
