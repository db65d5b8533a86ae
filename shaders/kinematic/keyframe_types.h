// The structs and push constants of the keyframe pass (docs/physics.md §17,
// "Kinematic colliders"), shared by GLSL and C++ (gpu_compat.h).
#ifndef VKSIM_KEYFRAME_TYPES_H
#define VKSIM_KEYFRAME_TYPES_H
#include "shaders/shared/gpu_compat.h"

GPU_NAMESPACE_BEGIN

// KeyframeTrack::flags.
GPU_CONST(uint, kKeyframeLoop, 1);   // after the last frame, wrap to the first (else hold the last)
GPU_CONST(uint, kKeyframeSlerp, 2);  // rotations by slerp (else normalised linear interpolation)
// KeyframeTrack::parent of a track in world coordinates.
GPU_CONST(uint, kKeyframeNoParent, 0xffffffffu);

// One kinematic collider's track: its frames, uploaded once. A collider
// with a parent and no keyframes of its own has a track of two equal frames.
struct KeyframeTrack {
    uint collider;    // the scene collider whose pose and velocity it writes
    uint firstFrame;  // its frames: [firstFrame, firstFrame + frameCount) of the keyframe buffer
    uint frameCount;  // >= 2, times strictly increasing from 0
    uint flags;       // kKeyframeLoop | kKeyframeSlerp
    float duration;   // the last frame's time [s]: a loop's period
    // The track whose collider's frame this one's poses are in (an earlier
    // track: parents are evaluated first), or kKeyframeNoParent.
    uint parent;
    uint pad1;
    uint pad2;
};
GPU_CHECK_SIZE(KeyframeTrack, 32);

struct Keyframe {
    vec4 position;  // xyz [m]; w: the frame's time [s]
    vec4 rotation;  // unit quaternion (x, y, z, w), local -> world
};
GPU_CHECK_SIZE(Keyframe, 32);

// Per track, its time on the GPU (the state that carries it across frames,
// saved with the world's): the time since the track started, wrapped into
// [0, duration) when it loops and held at the duration when it does not,
// summed substep by substep with Kahan's compensation, so that it keeps a
// float's precision however long the run (no drift of n h rounding errors).
struct KeyframeClock {
    float time;          // [s]
    float compensation;  // the low part Kahan's sum carries (what the last addition lost)
    float pad0;
    float pad1;
};
GPU_CHECK_SIZE(KeyframeClock, 16);

// Push constants of kinematic/keyframes.comp.
struct KeyframePush {
    float dt;  // the substep h [s]
    uint trackCount;
    uint pad0;
    uint pad1;
};
GPU_CHECK_SIZE(KeyframePush, 16);

GPU_NAMESPACE_END

#endif
