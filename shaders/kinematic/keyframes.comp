#version 460
// docs/physics.md §17: at the start of every substep, each keyframe track's
// clock advances by h, and its collider's pose at the substep's end (in its
// parent's frame, when it has a parent) is written with the velocity that
// the substep's motion implies (keyframe_math.glsl), so that the
// collision stages meet the collider where it will be and friction carries
// what touches it along exactly. Only the pose and velocity of the row are
// written; its shape, thickness and friction stay (a live edit may change them).
// The clock lives on the GPU because a frame's commands are recorded once
// and replayed (world/frame_commands.h), and is saved with the state.
#extension GL_GOOGLE_include_directive : require
#include "shared/kernel.glsl"
#include "kinematic/keyframe_types.h"
#include "math/quaternion.glsl"
#include "kinematic/keyframe_math.glsl"

layout(push_constant) uniform Push { KeyframePush pc; };
layout(std430, binding = 0) readonly buffer Tracks { KeyframeTrack tracks[]; };
layout(std430, binding = 1) readonly buffer Frames { Keyframe frames[]; };
layout(std430, binding = 2) buffer Clocks { KeyframeClock clocks[]; };
layout(std430, binding = 3) buffer Colliders { Collider colliders[]; };

// The track's pose at time t in [0, duration]: between the last frame at or
// before t and the next.
KeyframePose poseAt(KeyframeTrack track, float t) {
    uint k = track.firstFrame;
    uint last = track.firstFrame + track.frameCount - 1u;
    while (k + 1u < last && frames[k + 1u].position.w <= t) ++k;
    Keyframe a = frames[k];
    Keyframe b = frames[k + 1u];
    float s = clamp((t - a.position.w) / (b.position.w - a.position.w), 0.0, 1.0);
    return interpolateKeyframes(a.position.xyz, a.rotation, b.position.xyz, b.rotation, s,
                                (track.flags & kKeyframeSlerp) != 0u);
}

// The track's time at the substep's start and end, its clock advanced.
struct TrackTimes {
    float start;
    float end;
    bool wrapped;
};

TrackTimes advanceClock(uint i, KeyframeTrack track) {
    KeyframeClock clock = clocks[i];
    bool loop = (track.flags & kKeyframeLoop) != 0u;
    float t0 = clock.time;
    // Kahan's compensated sum (precise: no reassociation may drop the
    // compensation).
    precise float y = pc.dt - clock.compensation;
    precise float t1 = t0 + y;
    precise float lost = (t1 - t0) - y;
    bool wrapped = false;
    if (loop && t1 >= track.duration) {
        // Exact (Sterbenz) while h <= duration; a longer h wraps by mod.
        t1 = t1 - track.duration;
        if (t1 >= track.duration) t1 = mod(t1, track.duration);
        wrapped = true;
    } else if (!loop && t1 >= track.duration) {
        t1 = track.duration;  // held: the last frame's pose, at rest
        lost = 0.0;
    }
    clocks[i] = KeyframeClock(t1, lost, 0.0, 0.0);
    return TrackTimes(t0, t1, wrapped);
}

// One invocation, the tracks in order: a parent's world poses are known
// before its children's (at most kMaxColliders tracks; the pass is tiny).
void main() {
    if (gl_GlobalInvocationID.x != 0u) return;
    KeyframePose starts[kMaxColliders];
    KeyframePose ends[kMaxColliders];
    for (uint i = 0u; i < pc.trackCount; ++i) {
        KeyframeTrack track = tracks[i];
        TrackTimes t = advanceClock(i, track);
        KeyframePose a = poseAt(track, t.start);
        KeyframePose b = poseAt(track, t.end);
        if (t.wrapped) a = keyframeUnwrappedStart(a, poseAt(track, track.duration), poseAt(track, 0.0));
        if (track.parent != kKeyframeNoParent) {
            a = keyframeInParent(starts[track.parent], a);
            b = keyframeInParent(ends[track.parent], b);
        }
        starts[i] = a;
        ends[i] = b;
        KeyframeVelocity v = keyframeVelocity(a, b, pc.dt);
        Collider c = colliders[track.collider];
        c.position = vec4(b.position, c.position.w);  // w: the shape's bounding radius (sim/collider_bounds.h)
        c.rotation = b.rotation;
        c.linearVelocity = vec4(v.linear, c.linearVelocity.w);
        c.angularVelocity = vec4(v.angular, 0.0);
        colliders[track.collider] = c;
    }
}
