#include "model/keyframe_reference.h"

#include <algorithm>
#include <cmath>

#include "geometry/shared_math.h"

namespace vksim {

namespace {

ref::KeyframePose toRef(const KinematicPose& pose) { return ref::KeyframePose(pose.position, pose.rotation); }

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
    const ref::KeyframePose pose = ref::interpolateKeyframes(glm::dvec3(a.position), qa, glm::dvec3(b.position), qb,
                                                             s, track.rotation == KeyframeRotation::Slerp);
    KinematicPose out;
    out.position = pose.position;
    out.rotation = pose.rotation;
    return out;
}

KinematicPose keyframeStateAfter(const KeyframeTrackDesc& track, uint64_t substeps, double h) {
    if (substeps == 0) return keyframePoseAt(track, 0.0);
    const double t0 = double(substeps - 1) * h;
    const double t1 = double(substeps) * h;
    const double duration = track.duration();
    const KinematicPose a = keyframePoseAt(track, keyframeTrackTime(track, t0));
    KinematicPose b = keyframePoseAt(track, keyframeTrackTime(track, t1));
    const bool wrapped = track.loop && std::floor(t1 / duration) != std::floor(t0 / duration);
    const ref::KeyframeVelocity v =
        wrapped ? ref::keyframeWrapVelocity(toRef(a), toRef(keyframePoseAt(track, duration)),
                                            toRef(keyframePoseAt(track, 0.0)), toRef(b), h)
                : ref::keyframeVelocity(toRef(a), toRef(b), h);
    b.linearVelocity = v.linear;
    b.angularVelocity = v.angular;
    return b;
}

}  // namespace vksim
