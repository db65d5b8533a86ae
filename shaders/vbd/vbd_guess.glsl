// The adaptive initial guess of vertex block descent (docs/physics.md §16,
// "Initial guess"; Chen, Liu, Yang & Yuksel 2024, "Initialization"):
// x = x + h v + h^2 a~ with a~ the previous step's acceleration along
// gravity, clamped to [0, |g|]. Written from what `vbd: init` reads: y,
// predict's velocity u this substep and the one it saw the substep before.
// The VBD init pass and the CPU reference (vbd_reference.h) both call it:
// shared math (math/real_glsl.h rules).
#ifndef VKSIM_VBD_GUESS_GLSL
#define VKSIM_VBD_GUESS_GLSL

// What predict (particle_math.glsl, predictedVelocity) multiplies v + h g
// by: the damping factor over the implicit drag's 1 + h sigma w. Computed
// with the same operations, so that u = s (v + h g) holds as predict rounds it.
real vbdPredictScale(real inverseMass, real damping, real drag, real h) {
    real s = max(real(0), real(1) - damping * h);
    if (drag > real(0)) s = s / (real(1) + h * drag * inverseMass);
    return s;
}

// y = x + h u, u = s (v_n + h g) predict's velocity (v_n the velocity the
// last substep ended with) and uPrevious = s (v_{n-1} + h g) the one before:
// u - uPrevious = s (v_n - v_{n-1}) = s h a_prev, so
//   s h a_prev.g^ = (u - uPrevious).g^
// needs no division by s (0 under heavy damping). The guess
//   x + h s v_n + h^2 s a~ = y - h^2 s (|g| - a~.g^) g^,
//   s h a~.g^ = clamp((u - uPrevious).g^, 0, s h |g|),
// is y (the inertial guess) in free fall and x + h s v_n at rest. Without
// gravity a~ = 0 and the guess is y = x + h s v_n.
real3 vbdAdaptiveGuess(real3 y, real3 u, real3 uPrevious, real3 gravity, real s, real h) {
    real gLength = length(gravity);
    if (!(gLength > real(0))) return y;
    real3 gHat = gravity / gLength;
    real full = s * h * gLength;  // s h |g|: what gravity adds to u in a substep
    real seen = clamp(dot(u - uPrevious, gHat), real(0), full);
    return y - (h * (full - seen)) * gHat;
}

#endif
