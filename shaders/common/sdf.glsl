// Signed distance functions of the collider primitives (negative inside) and
// their gradients, analytic and by the tetrahedral four-point stencil
// (SPEC.md 2). Shared math: see common/real_glsl.h for the rules.
#ifndef VKSIM_SDF_GLSL
#define VKSIM_SDF_GLSL

// Rotates v by the unit quaternion q = (x, y, z, w).
real3 quatRotate(real4 q, real3 v) {
    real3 u = real3(q.x, q.y, q.z);
    real3 t = real(2) * cross(u, v);
    return v + q.w * t + cross(u, t);
}

real3 quatRotateInverse(real4 q, real3 v) {
    return quatRotate(real4(-q.x, -q.y, -q.z, q.w), v);
}

// Distances in the collider's local frame (Quilez's primitives).
real sdfBoxLocal(real3 p, real3 halfExtents) {
    real3 q = abs(p) - halfExtents;
    return length(max(q, real3(0))) + min(max(q.x, max(q.y, q.z)), real(0));
}

real sdfCapsuleLocal(real3 p, real radius, real halfLength) {
    real3 fromAxis = real3(p.x, p.y - clamp(p.y, -halfLength, halfLength), p.z);
    return length(fromAxis) - radius;
}

real sdfLocal(uint type, real4 size, real3 p) {
    if (type == kColliderPlane) return p.y;
    if (type == kColliderSphere) return length(p) - size.x;
    if (type == kColliderBox) return sdfBoxLocal(p, real3(size.x, size.y, size.z));
    return sdfCapsuleLocal(p, size.x, size.y);
}

// f(p) for a collider placed at `position` with orientation `rotation`.
real sdfWorld(uint type, real3 position, real4 rotation, real4 size, real3 p) {
    return sdfLocal(type, size, quatRotateInverse(rotation, p - position));
}

// grad f(p) ~ sum_i k_i f(p + h k_i) / (4h) with k_i the vertices of a regular
// tetrahedron inscribed in the cube [-1,1]^3: four evaluations instead of the
// six of central differences. sum k_i = 0 and sum k_i k_i^T = 4 I give the
// gradient; the third moment sum k_i k_i k_i is not zero, so the leading error
// is h * (f_yz, f_xz, f_xy) (first order) wherever the Hessian has
// off-diagonal terms, and O(h^2) only where it does not.
real3 sdfGradientTetra(uint type, real3 position, real4 rotation, real4 size, real3 p, real h) {
    const real3 k0 = real3(1, -1, -1);
    const real3 k1 = real3(-1, -1, 1);
    const real3 k2 = real3(-1, 1, -1);
    const real3 k3 = real3(1, 1, 1);
    return (k0 * sdfWorld(type, position, rotation, size, p + h * k0) +
            k1 * sdfWorld(type, position, rotation, size, p + h * k1) +
            k2 * sdfWorld(type, position, rotation, size, p + h * k2) +
            k3 * sdfWorld(type, position, rotation, size, p + h * k3)) /
           (real(4) * h);
}

// Analytic gradient in the local frame (unit length where f is smooth); the
// oracle for the stencil tests.
real3 sdfGradientLocalAnalytic(uint type, real4 size, real3 p) {
    if (type == kColliderPlane) return real3(0, 1, 0);
    if (type == kColliderSphere) return normalize(p);
    if (type == kColliderCapsule) {
        real3 fromAxis = real3(p.x, p.y - clamp(p.y, -size.y, size.y), p.z);
        return normalize(fromAxis);
    }
    real3 q = abs(p) - real3(size.x, size.y, size.z);
    real3 s = real3(p.x < real(0) ? real(-1) : real(1), p.y < real(0) ? real(-1) : real(1),
                    p.z < real(0) ? real(-1) : real(1));
    if (max(q.x, max(q.y, q.z)) > real(0)) {
        real3 outside = max(q, real3(0));
        return s * outside / length(outside);
    }
    // Inside: the nearest face's normal.
    if (q.x >= q.y && q.x >= q.z) return real3(s.x, 0, 0);
    if (q.y >= q.z) return real3(0, s.y, 0);
    return real3(0, 0, s.z);
}

real3 sdfGradientAnalytic(uint type, real3 position, real4 rotation, real4 size, real3 p) {
    return quatRotate(rotation, sdfGradientLocalAnalytic(type, size, quatRotateInverse(rotation, p - position)));
}

#endif
