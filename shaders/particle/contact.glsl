// Velocity of a particle in contact, after the positional solve (docs/physics.md §3).
// Shared math: see math/real_glsl.h for the rules.
#ifndef VKSIM_CONTACT_GLSL
#define VKSIM_CONTACT_GLSL

// v: velocity from the solve; n: unit contact normal; approachSpeed: v.n
// before the solve (< 0: moving into the surface).
// Restitution: the normal velocity becomes -mu_N * approachSpeed (never less
// than what the solve left), except below restitutionThreshold where a resting
// contact would otherwise jitter. Coulomb friction scales the tangential
// velocity by a = max(1 - mu_T (1 + mu_N) |v_N| / |v_T|, 0), never reversing it.
real3 contactVelocity(real3 v, real3 n, real approachSpeed, real friction, real restitution,
                      real restitutionThreshold) {
    if (approachSpeed >= real(0)) return v;
    real vn = dot(v, n);
    real3 vt = v - vn * n;
    real vnAfter = vn;
    if (-approachSpeed > restitutionThreshold) vnAfter = max(vn, -restitution * approachSpeed);
    real vtLength = length(vt);
    real a = real(0);
    if (vtLength > real(0))
        a = max(real(1) - friction * (real(1) + restitution) * (-approachSpeed) / vtLength, real(0));
    return a * vt + vnAfter * n;
}

#endif
