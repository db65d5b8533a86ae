// Poses between keyframes and the velocity of a substep's motion
// (docs/physics.md §17, "Kinematic colliders"). Shared math: see
// math/real_glsl.h for the rules; the CPU reference (model/keyframe_reference.h)
// runs these functions in double.
#ifndef VKSIM_KEYFRAME_MATH_GLSL
#define VKSIM_KEYFRAME_MATH_GLSL

struct KeyframePose {
    real3 position;
    real4 rotation;  // unit quaternion (x, y, z, w)
};

struct KeyframeVelocity {
    real3 linear;   // of the pose's origin [m/s]
    real3 angular;  // [rad/s], world frame, about the origin
};

// The Hamilton product a b of quaternions (x, y, z, w): b, then a.
real4 keyframeQuatMultiply(real4 a, real4 b) {
    return real4(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                 a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}

real4 keyframeQuatConjugate(real4 q) { return real4(-q.x, -q.y, -q.z, q.w); }

// The pose a fraction s in [0, 1] of the way from frame 0 to frame 1: the
// position linearly; the rotation along the shorter arc (q1 taken as -q1
// when they are more than half a turn apart), by slerp (constant angular
// speed: Shoemake 1985) or by normalised linear interpolation. At s = 0
// and s = 1 both give the frames' own rotations (to rounding).
KeyframePose interpolateKeyframes(real3 p0, real4 q0, real3 p1, real4 q1, real s, bool slerp) {
    real4 b = dot(q0, q1) < real(0) ? -q1 : q1;
    real wa = real(1) - s;
    real wb = s;
    if (slerp) {
        // The angle between them, from a formula that stays accurate near
        // 0 (acos of the dot product does not): theta = 2 atan(|a - b|, |a + b|).
        real theta = real(2) * atan(length(q0 - b), length(q0 + b));
        real sinTheta = sin(theta);
        if (sinTheta > real(1e-6)) {
            wa = sin((real(1) - s) * theta) / sinTheta;
            wb = sin(s * theta) / sinTheta;
        }
    }
    return KeyframePose(p0 + s * (p1 - p0), normalize(wa * q0 + wb * b));
}

// The rotation vector (axis times angle, the angle in [0, pi]) of the unit
// quaternion q: the shorter way round.
real3 keyframeRotationVector(real4 q) {
    real4 r = q.w < real(0) ? -q : q;
    real3 v = real3(r.x, r.y, r.z);
    real sinHalf = length(v);
    if (!(sinHalf > real(0))) return real3(real(0));
    return (real(2) * atan(sinHalf, r.w) / sinHalf) * v;
}

// The velocity that carries pose a into pose b in h: the origin's
// displacement over h, and the rotation b a^-1 as a rotation vector over h
// (so that a surface point x moves at linear + angular x (x - origin)).
KeyframeVelocity keyframeVelocity(KeyframePose a, KeyframePose b, real h) {
    real4 turn = keyframeQuatMultiply(b.rotation, keyframeQuatConjugate(a.rotation));
    return KeyframeVelocity((b.position - a.position) / h, keyframeRotationVector(turn) / h);
}

// The same across a loop's wrap: from a to the track's end, then from its
// start to b. The jump from the last frame back to the first (nothing,
// where the last frame repeats the first pose) adds no velocity.
KeyframeVelocity keyframeWrapVelocity(KeyframePose a, KeyframePose end, KeyframePose start, KeyframePose b, real h) {
    real4 before = keyframeQuatMultiply(end.rotation, keyframeQuatConjugate(a.rotation));
    real4 after = keyframeQuatMultiply(b.rotation, keyframeQuatConjugate(start.rotation));
    return KeyframeVelocity(((end.position - a.position) + (b.position - start.position)) / h,
                            keyframeRotationVector(keyframeQuatMultiply(after, before)) / h);
}

#endif
