// A tether projected after a solve (docs/physics.md §1, "Tethers"): the
// particle is moved back onto the sphere of the tether's length around its
// anchor when it is outside, and loses the velocity it had outwards (an
// inelastic limit, as a collision). Shared math: see math/real_glsl.h.
#ifndef VKSIM_TETHER_MATH_GLSL
#define VKSIM_TETHER_MATH_GLSL

struct TetherProjection {
    real3 position;
    real3 normal;  // outward unit normal where it was moved; zero where it was within
};

TetherProjection projectTether(real3 p, real3 anchor, real tetherLength) {
    real3 d = p - anchor;
    real distance = length(d);
    if (distance <= tetherLength || distance <= real(1e-12)) return TetherProjection(p, real3(0));
    real3 n = d / distance;
    return TetherProjection(anchor + tetherLength * n, n);
}

// v without its outward part along n (n zero: v).
real3 tetherVelocity(real3 v, real3 n) {
    real outward = dot(v, n);
    return outward > real(0) ? v - outward * n : v;
}

#endif
