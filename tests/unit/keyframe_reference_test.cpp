// The keyframe tracks of kinematic colliders in double (model/keyframe_reference.h,
// docs/physics.md §17): frames reached at their times, slerp against
// linear interpolation, hold and loop, velocities from the substep's
// motion; and the scene keys that describe them.
#include <cmath>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "model/collider_builder.h"
#include "model/keyframe_reference.h"
#include "scene/scene_loader.h"

namespace vksim {
namespace {

glm::vec4 aboutZ(double degrees) {
    const double half = glm::radians(degrees) / 2.0;
    return glm::vec4(0.0f, 0.0f, float(std::sin(half)), float(std::cos(half)));
}

double angleOf(glm::dvec4 q) { return glm::degrees(2.0 * std::atan2(glm::length(glm::dvec3(q)), std::abs(q.w))); }

KeyframeTrackDesc quarterTurn(KeyframeRotation rotation, bool loop) {
    KeyframeTrackDesc track;
    track.rotation = rotation;
    track.loop = loop;
    track.frames = {{0.0, {0.0f, 0.0f, 0.0f}, aboutZ(0)}, {1.0, {2.0f, 0.0f, 0.0f}, aboutZ(90)}};
    return track;
}

// Slerp turns at a constant rate: a quarter of the way is 22.5 degrees.
// Normalised linear interpolation takes the same path at a varying rate:
// it agrees at the ends and the middle, and at a quarter it is 0.9 degrees
// short (2 atan(sin 45 / (3 + cos 45)) = 21.6 degrees).
TEST(KeyframeReference, SlerpTurnsEvenlyLinearDoesNot) {
    const KinematicPose slerp = keyframePoseAt(quarterTurn(KeyframeRotation::Slerp, false), 0.25);
    const KinematicPose linear = keyframePoseAt(quarterTurn(KeyframeRotation::Linear, false), 0.25);
    const KinematicPose linearMiddle = keyframePoseAt(quarterTurn(KeyframeRotation::Linear, false), 0.5);
    const double nlerp = glm::degrees(2.0 * std::atan(std::sin(M_PI / 4) / (3.0 + std::cos(M_PI / 4))));
    std::cout << fmt::format("[keyframes] a quarter of a 90 degree turn: slerp {:.6f}, linear {:.6f} ({:.6f}) "
                             "degrees\n",
                             angleOf(slerp.rotation), angleOf(linear.rotation), nlerp);
    EXPECT_NEAR(angleOf(slerp.rotation), 22.5, 1e-9);
    EXPECT_NEAR(angleOf(linear.rotation), nlerp, 1e-9);
    EXPECT_NEAR(angleOf(linearMiddle.rotation), 45.0, 1e-9);
    EXPECT_NEAR(slerp.position.x, 0.5, 1e-15);
}

// The pose at a frame's time is the frame's.
TEST(KeyframeReference, EveryFrameIsReachedAtItsTime) {
    KeyframeTrackDesc track;
    track.frames = {{0.0, {0.0f, 1.0f, 0.0f}, aboutZ(0)},
                    {0.5, {1.0f, 2.0f, 3.0f}, aboutZ(170)},
                    {0.75, {-1.0f, 0.0f, 0.5f}, glm::vec4(0.3f, 0.2f, 0.1f, 0.9f)}};
    for (KeyframeRotation rotation : {KeyframeRotation::Slerp, KeyframeRotation::Linear}) {
        track.rotation = rotation;
        for (const KeyframeDesc& frame : track.frames) {
            const KinematicPose pose = keyframePoseAt(track, frame.time);
            EXPECT_LT(glm::length(pose.position - glm::dvec3(frame.position)), 1e-15);
            EXPECT_LT(glm::length(pose.rotation - glm::normalize(glm::dvec4(frame.rotation))), 1e-15);
        }
    }
}

// Not looping, the last pose holds at rest; looping, time wraps at the
// last frame, and the jump back to the first frame adds no velocity.
TEST(KeyframeReference, HoldAndLoop) {
    const double h = 1.0 / 8.0;
    const KeyframeTrackDesc held = quarterTurn(KeyframeRotation::Slerp, false);
    const KinematicPose after = keyframeStateAfter(held, 20, h);  // t = 2.5 s
    EXPECT_EQ(after.position, glm::dvec3(2.0, 0.0, 0.0));
    EXPECT_EQ(after.linearVelocity, glm::dvec3(0.0));
    EXPECT_EQ(after.angularVelocity, glm::dvec3(0.0));

    const KeyframeTrackDesc looped = quarterTurn(KeyframeRotation::Slerp, true);
    // Substep 9 runs from t = 1 (the end: wrapped to 0) to 1.125.
    const KinematicPose wrapped = keyframeStateAfter(looped, 9, h);
    EXPECT_NEAR(wrapped.position.x, 0.25, 1e-15);
    EXPECT_NEAR(wrapped.linearVelocity.x, 2.0, 1e-12);
    // Substep 8 ends exactly at the end, which wraps to the start: the
    // motion from 0.875 to 1 and none from the jump.
    const KinematicPose atEnd = keyframeStateAfter(looped, 8, h);
    EXPECT_NEAR(atEnd.position.x, 0.0, 1e-15);
    EXPECT_NEAR(atEnd.linearVelocity.x, 2.0, 1e-12);
    EXPECT_NEAR(atEnd.angularVelocity.z, glm::radians(90.0), 1e-12);
}

// A constant rotation rate gives a constant angular velocity: 90 degrees
// in 1 s is pi/2 rad/s about z in every substep.
TEST(KeyframeReference, VelocitiesAreTheSubstepsMotion) {
    const KeyframeTrackDesc track = quarterTurn(KeyframeRotation::Slerp, false);
    for (uint64_t n = 1; n <= 8; ++n) {
        const KinematicPose pose = keyframeStateAfter(track, n, 0.125);
        EXPECT_NEAR(pose.linearVelocity.x, 2.0, 1e-12);
        EXPECT_NEAR(pose.angularVelocity.z, M_PI / 2.0, 1e-12);
        EXPECT_NEAR(glm::length(glm::dvec2(pose.angularVelocity)), 0.0, 1e-12);
    }
}

// A child held 1 m out along its parent's x, the parent turning about y at
// pi/2 rad/s: the child is on the circle at the parent's angle, turns with
// it (the same angular velocity), and moves at the chord's velocity,
// |v| = 2 sin(w h / 2) / h = w (1 - (w h)^2 / 24) for a radius of 1 m,
// which is w x r to second order in h.
TEST(KeyframeReference, AChildMovesWithItsParent) {
    ColliderDesc parent;
    parent.name = "torso";
    parent.keyframes = quarterTurn(KeyframeRotation::Slerp, false);
    for (KeyframeDesc& frame : parent.keyframes->frames) {
        frame.position = glm::vec3(0.0f);
        frame.rotation = glm::vec4(0.0f, float(std::sin(glm::radians(frame.time * 90.0) / 2.0)), 0.0f,
                                   float(std::cos(glm::radians(frame.time * 90.0) / 2.0)));
    }
    ColliderDesc child;
    child.name = "arm";
    child.parent = "torso";
    child.position = glm::vec3(1.0f, 0.0f, 0.0f);
    const double h = 1.0 / 16.0;
    const double w = M_PI / 2.0;
    for (uint64_t n = 1; n <= 16; ++n) {
        const std::vector<KinematicPose> poses = colliderPosesAfter({parent, child}, n, h);
        const double angle = w * double(n) * h;
        const glm::dvec3 expected(std::cos(angle), 0.0, -std::sin(angle));
        EXPECT_LT(glm::length(poses[1].position - expected), 1e-7) << n;
        EXPECT_LT(glm::length(poses[1].angularVelocity - poses[0].angularVelocity), 1e-12) << n;
        const double chord = 2.0 * std::sin(w * h / 2.0) / h;
        EXPECT_NEAR(glm::length(poses[1].linearVelocity), chord, 1e-7) << n;
        EXPECT_NEAR(chord, w, w * (w * h) * (w * h) / 24.0 * 1.01);
    }
}

TEST(KeyframeScene, KeysLoadIntoTheTrack) {
    const Scene scene = parseScene(R"({
      "objects": [ { "type": "cloth", "resolution": [4, 4] } ],
      "colliders": [
        { "type": "capsule", "name": "arm", "friction": 0.7,
          "keyframes": { "loop": true, "rotation": "linear", "frames": [
            { "time": 0, "position": [0, 1, 0] },
            { "time": 0.5, "rotation": { "axis": [0, 0, 1], "degrees": 90 } },
            { "time": 1.5, "position": [1, 1, 0], "rotation": [0, 0, 0, 1] } ] } },
        { "type": "sphere", "name": "hand", "parent": "arm", "position": [0, 0.6, 0] },
        { "type": "plane" } ] })",
                                   "keyframes.json");
    ASSERT_TRUE(scene.colliders[0].keyframes.has_value());
    EXPECT_FALSE(scene.colliders[1].keyframes.has_value());
    EXPECT_EQ(scene.colliders[1].parent, "arm");
    EXPECT_TRUE(scene.colliders[1].kinematic());
    EXPECT_FALSE(scene.colliders[2].kinematic());
    const KeyframeTrackDesc& track = *scene.colliders[0].keyframes;
    EXPECT_TRUE(track.loop);
    EXPECT_EQ(track.rotation, KeyframeRotation::Linear);
    ASSERT_EQ(track.frames.size(), 3u);
    EXPECT_EQ(track.duration(), 1.5);
    // A frame without a position keeps the previous frame's.
    EXPECT_EQ(track.frames[1].position, glm::vec3(0.0f, 1.0f, 0.0f));
    EXPECT_NEAR(track.frames[1].rotation.z, std::sqrt(0.5), 1e-7);
    // The collider starts at the first frame's pose.
    EXPECT_EQ(scene.colliders[0].position, glm::vec3(0.0f, 1.0f, 0.0f));

    SharedModel model;
    for (const ColliderDesc& desc : scene.colliders) model.colliders.push_back(toCollider(desc));
    buildKeyframeTracks(scene.colliders, model);
    ASSERT_EQ(model.keyframeTracks.size(), 2u);
    EXPECT_EQ(model.keyframeTracks[1].parent, 0u);
    EXPECT_EQ(model.keyframeTracks[0].parent, gpu::kKeyframeNoParent);
    // The hand starts 0.6 m above the arm's first pose.
    EXPECT_EQ(glm::vec3(model.colliders[1].position), glm::vec3(0.0f, 1.6f, 0.0f));
    EXPECT_EQ(model.keyframeTracks[0].collider, 0u);
    EXPECT_EQ(model.keyframeTracks[0].frameCount, 3u);
    EXPECT_EQ(model.keyframeTracks[0].flags, gpu::kKeyframeLoop);
    EXPECT_EQ(model.keyframeTracks[0].duration, 1.5f);
    EXPECT_EQ(model.keyframes[2].position, glm::vec4(1.0f, 1.0f, 0.0f, 1.5f));
}

}  // namespace
}  // namespace vksim
