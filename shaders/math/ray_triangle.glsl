// Where a ray crosses a triangle (Möller and Trumbore 1997, "Fast, Minimum
// Storage Ray/Triangle Intersection"), for picking: the GPU pick of the
// particles' triangles (interact/pick_candidates.comp) and the CPU pick of
// the rigid bodies (rigid/body_pick.cpp). Shared math: see
// math/real_glsl.h for the rules.
#ifndef VKSIM_RAY_TRIANGLE_GLSL
#define VKSIM_RAY_TRIANGLE_GLSL

// The ray parameter t > 0 at which origin + t direction crosses triangle
// (a, b, c), from either side, or -1 when it misses it (or runs parallel).
real rayTriangleHit(real3 origin, real3 direction, real3 a, real3 b, real3 c) {
    real3 e1 = b - a;
    real3 e2 = c - a;
    real3 pv = cross(direction, e2);
    real det = dot(e1, pv);
    if (!(abs(det) > real(1e-12))) return real(-1);
    real inv = real(1) / det;
    real3 tv = origin - a;
    real u = dot(tv, pv) * inv;
    real3 qv = cross(tv, e1);
    real v = dot(direction, qv) * inv;
    real hit = dot(e2, qv) * inv;
    if (u >= real(0) && v >= real(0) && u + v <= real(1) && hit > real(0)) return hit;
    return real(-1);
}

#endif
