// Rotations by unit quaternions q = (x, y, z, w). Shared math: see
// math/real_glsl.h for the rules.
#ifndef VKSIM_QUATERNION_GLSL
#define VKSIM_QUATERNION_GLSL

// Rotates v by the unit quaternion q.
real3 quatRotate(real4 q, real3 v) {
    real3 u = real3(q.x, q.y, q.z);
    real3 t = real(2) * cross(u, v);
    return v + q.w * t + cross(u, t);
}

real3 quatRotateInverse(real4 q, real3 v) {
    return quatRotate(real4(-q.x, -q.y, -q.z, q.w), v);
}

#endif
