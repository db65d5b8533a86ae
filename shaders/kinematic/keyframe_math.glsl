// Poses between keyframes and the velocity of a substep's motion
// (docs/physics.md §17). Shared math: see math/real_glsl.h for the rules;
// the CPU reference (model/keyframe_reference.h) runs these functions in
// double. Needs math/quaternion.glsl.
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

// Where the track would have started the substep had it not jumped: a
// loop that wraps within the substep runs from a to the track's end, then
// from its start to b. The pose whose motion to b is that motion (no jump:
// nothing where the last frame repeats the first pose) is
// (a.p - end.p + start.p, a.q end.q^-1 start.q); keyframeVelocity from it
// to b is the motion's velocity.
KeyframePose keyframeUnwrappedStart(KeyframePose a, KeyframePose end, KeyframePose start) {
    real4 turn = keyframeQuatMultiply(keyframeQuatMultiply(a.rotation, keyframeQuatConjugate(end.rotation)),
                                      start.rotation);
    return KeyframePose(a.position - end.position + start.position, normalize(turn));
}

// A pose given in a parent's frame, in the world: x = p_parent + R_parent x_local.
KeyframePose keyframeInParent(KeyframePose parent, KeyframePose local) {
    return KeyframePose(parent.position + quatRotate(parent.rotation, local.position),
                        normalize(keyframeQuatMultiply(parent.rotation, local.rotation)));
}

#endif
