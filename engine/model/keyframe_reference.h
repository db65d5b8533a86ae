#pragma once
// The CPU reference of the keyframe pass (shaders/kinematic/keyframes.comp,
// docs/physics.md §17) in double: kinematic colliders' poses and velocities
// after n substeps of h, from the exact time n h (wrapped or held), through
// the same functions the GPU runs (keyframe_math.glsl as C++), parents
// before children. What the GPU is tested against, and what the model's
// first collider rows are built from.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "scene/scene.h"

namespace vksim {

struct KinematicPose {
    glm::dvec3 position{0.0};
    glm::dvec4 rotation{0.0, 0.0, 0.0, 1.0};  // unit quaternion (x, y, z, w)
    glm::dvec3 linearVelocity{0.0};            // of the origin [m/s]
    glm::dvec3 angularVelocity{0.0};           // [rad/s] about the origin
};

// The track's time at simulated time t: t held at the duration, or wrapped
// into [0, duration) when it loops.
double keyframeTrackTime(const KeyframeTrackDesc& track, double t);
// The pose at track time t in [0, duration] (no velocity).
KinematicPose keyframePoseAt(const KeyframeTrackDesc& track, double trackTime);
// A track alone (in the world's frame) after `substeps` substeps of h: the
// pose at the end of the last, with the velocity its motion implies (zero
// before the first).
KinematicPose keyframeStateAfter(const KeyframeTrackDesc& track, uint64_t substeps, double h);

// A kinematic collider's track in its parent's frame (or the world's): its
// keyframes, or, under a parent without keyframes of its own, its position
// and rotation held (two equal frames).
KeyframeTrackDesc localKeyframeTrack(const ColliderDesc& collider);
// Every collider after `substeps` substeps of h: the kinematic ones on
// their tracks, composed with their parents' poses; the others as their
// descriptions say. Throws std::invalid_argument for a parent that is not
// an earlier kinematic collider.
std::vector<KinematicPose> colliderPosesAfter(const std::vector<ColliderDesc>& colliders, uint64_t substeps,
                                              double h);

}  // namespace vksim
