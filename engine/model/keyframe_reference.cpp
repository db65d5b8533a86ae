#include "model/keyframe_reference.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "geometry/shared_math.h"
#include "io/quoted_input.h"

namespace vksim {

namespace {

ref::KeyframePose toRef(const KinematicPose& pose) { return ref::KeyframePose(pose.position, pose.rotation); }

KinematicPose fromRef(const ref::KeyframePose& pose) {
    KinematicPose out;
    out.position = pose.position;
    out.rotation = pose.rotation;
    return out;
}

// The track's poses at the start and the end of substep `substeps` (1 is
// the first), the start unwrapped where a loop wraps within it
// (keyframeUnwrappedStart): in its own frame, as keyframes.comp has them.
struct SubstepPoses {
    ref::KeyframePose start, end;
};

SubstepPoses substepPoses(const KeyframeTrackDesc& track, uint64_t substeps, double h) {
    if (substeps == 0) {
        const ref::KeyframePose first = toRef(keyframePoseAt(track, 0.0));
        return {first, first};
    }
    const double t0 = double(substeps - 1) * h;
    const double t1 = double(substeps) * h;
    const double duration = track.duration();
    ref::KeyframePose a = toRef(keyframePoseAt(track, keyframeTrackTime(track, t0)));
    const ref::KeyframePose b = toRef(keyframePoseAt(track, keyframeTrackTime(track, t1)));
    if (track.loop && std::floor(t1 / duration) != std::floor(t0 / duration))
        a = ref::keyframeUnwrappedStart(a, toRef(keyframePoseAt(track, duration)), toRef(keyframePoseAt(track, 0.0)));
    return {a, b};
}

}  // namespace

double keyframeTrackTime(const KeyframeTrackDesc& track, double t) {
    const double duration = track.duration();
    if (t < duration) return t;
    if (!track.loop) return duration;
    return t - duration * std::floor(t / duration);
}

KinematicPose keyframePoseAt(const KeyframeTrackDesc& track, double trackTime) {
    const std::vector<KeyframeDesc>& frames = track.frames;
    std::size_t k = 0;
    while (k + 2 < frames.size() && frames[k + 1].time <= trackTime) ++k;
    const KeyframeDesc& a = frames[k];
    const KeyframeDesc& b = frames[k + 1];
    const double s = std::clamp((trackTime - a.time) / (b.time - a.time), 0.0, 1.0);
    const glm::dvec4 qa = glm::normalize(glm::dvec4(a.rotation));
    const glm::dvec4 qb = glm::normalize(glm::dvec4(b.rotation));
    return fromRef(ref::interpolateKeyframes(glm::dvec3(a.position), qa, glm::dvec3(b.position), qb, s,
                                             track.rotation == KeyframeRotation::Slerp));
}

KinematicPose keyframeStateAfter(const KeyframeTrackDesc& track, uint64_t substeps, double h) {
    const SubstepPoses poses = substepPoses(track, substeps, h);
    KinematicPose out = fromRef(poses.end);
    if (substeps == 0) return out;
    const ref::KeyframeVelocity v = ref::keyframeVelocity(poses.start, poses.end, h);
    out.linearVelocity = v.linear;
    out.angularVelocity = v.angular;
    return out;
}

KeyframeTrackDesc localKeyframeTrack(const ColliderDesc& collider) {
    if (collider.keyframes) return *collider.keyframes;
    KeyframeTrackDesc held;
    held.frames = {{0.0, collider.position, collider.rotation}, {1.0, collider.position, collider.rotation}};
    return held;
}

std::vector<KinematicPose> colliderPosesAfter(const std::vector<ColliderDesc>& colliders, uint64_t substeps,
                                              double h) {
    std::vector<KinematicPose> out(colliders.size());
    std::vector<SubstepPoses> world(colliders.size());
    for (std::size_t c = 0; c < colliders.size(); ++c) {
        const ColliderDesc& desc = colliders[c];
        if (!desc.kinematic()) {
            out[c] = {glm::dvec3(desc.position), glm::normalize(glm::dvec4(desc.rotation)),
                      glm::dvec3(desc.linearVelocity), glm::dvec3(desc.angularVelocity)};
            continue;
        }
        SubstepPoses poses = substepPoses(localKeyframeTrack(desc), substeps, h);
        if (!desc.parent.empty()) {
            std::size_t p = 0;
            while (p < c && colliders[p].name != desc.parent) ++p;
            if (p == c || !colliders[p].kinematic())
                throw std::invalid_argument(fmt::format("collider '{}': its parent '{}' is not an earlier kinematic "
                                                        "collider",
                                                        clipInput(desc.name), clipInput(desc.parent)));
            poses = {ref::keyframeInParent(world[p].start, poses.start),
                     ref::keyframeInParent(world[p].end, poses.end)};
        }
        world[c] = poses;
        out[c] = fromRef(poses.end);
        if (substeps > 0) {
            const ref::KeyframeVelocity v = ref::keyframeVelocity(poses.start, poses.end, h);
            out[c].linearVelocity = v.linear;
            out[c].angularVelocity = v.angular;
        }
    }
    return out;
}

}  // namespace vksim
