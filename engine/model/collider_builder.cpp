#include "model/collider_builder.h"

#include <cmath>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "geometry/collider_bounds.h"
#include "geometry/signed_distance_grid.h"
#include "io/quoted_input.h"
#include "io/triangle_surface.h"
#include "model/keyframe_reference.h"

namespace vksim {

gpu::Collider toCollider(const ColliderDesc& desc) {
    gpu::Collider collider{};
    collider.position = glm::vec4(desc.position, -1.0f);  // unbounded until attachMeshColliders sets the bound
    float norm = glm::length(desc.rotation);
    if (!std::isfinite(norm) || norm < 1e-6f)
        throw std::invalid_argument(
            fmt::format("collider '{}': rotation quaternion cannot be normalised", clipInput(desc.name)));
    collider.rotation = desc.rotation / norm;
    collider.linearVelocity = glm::vec4(desc.linearVelocity, 0.0f);
    collider.angularVelocity = glm::vec4(desc.angularVelocity, 0.0f);
    if (desc.keyframes && !desc.keyframes->frames.empty()) {
        // Kinematic: the first frame's pose, at rest, until the first substep moves it.
        const KeyframeDesc& first = desc.keyframes->frames.front();
        collider.position = glm::vec4(first.position, -1.0f);
        const float firstNorm = glm::length(first.rotation);
        if (std::isfinite(firstNorm) && firstNorm >= 1e-6f) collider.rotation = first.rotation / firstNorm;
        collider.linearVelocity = glm::vec4(0.0f);
        collider.angularVelocity = glm::vec4(0.0f);
    }
    switch (desc.shape) {
        case ColliderShape::Plane:
            collider.type = gpu::kColliderPlane;
            collider.size = glm::vec4(0.0f);
            break;
        case ColliderShape::Sphere:
            collider.type = gpu::kColliderSphere;
            collider.size = glm::vec4(desc.radius, 0.0f, 0.0f, 0.0f);
            break;
        case ColliderShape::Box:
            collider.type = gpu::kColliderBox;
            collider.size = glm::vec4(desc.halfExtents, 0.0f);
            break;
        case ColliderShape::Capsule:
            collider.type = gpu::kColliderCapsule;
            collider.size = glm::vec4(desc.radius, desc.halfLength, 0.0f, 0.0f);
            break;
        case ColliderShape::Mesh:  // size.x, the grid's offset, is set by attachMeshColliders
            collider.type = gpu::kColliderMesh;
            collider.size = glm::vec4(0.0f, desc.meshScale, 0.0f, 0.0f);
            break;
    }
    collider.thickness = desc.thickness;
    collider.friction = desc.friction;
    collider.size.w = desc.staticFriction.value_or(desc.friction);  // mu_s (gpu::Collider::size)
    collider.restitution = desc.restitution;
    return collider;
}

void attachMeshColliders(const std::vector<ColliderDesc>& descs, SharedModel& model) {
    if (model.colliders.size() != descs.size())
        throw std::logic_error("attachMeshColliders: one collider per description expected");
    model.meshSdfGrids.clear();
    model.colliderSurfaces.assign(descs.size(), {});
    std::map<const SignedDistanceGrid*, uint32_t> offsets;
    for (std::size_t c = 0; c < descs.size(); ++c) {
        const ColliderDesc& desc = descs[c];
        if (desc.shape != ColliderShape::Mesh) continue;
        if (!desc.meshSdf || !desc.meshSurface)
            throw std::invalid_argument(
                fmt::format("collider '{}': mesh collider without its mesh", clipInput(desc.name)));
        auto [slot, added] = offsets.try_emplace(desc.meshSdf.get(), 0u);
        if (added) slot->second = appendGridToBuffer(*desc.meshSdf, model.meshSdfGrids);
        model.colliders[c].size.x = static_cast<float>(slot->second);

        ColliderSurface& surface = model.colliderSurfaces[c];
        for (const glm::dvec3& p : desc.meshSurface->positions)
            surface.positions.push_back(glm::vec3(double(desc.meshScale) * p));
        surface.triangles = desc.meshSurface->triangles;
    }
    setColliderBounds(model.colliders, model.meshSdfGrids);
}

void buildKeyframeTracks(const std::vector<ColliderDesc>& descs, SharedModel& model) {
    model.keyframeTracks.clear();
    model.keyframes.clear();
    // Each collider's track, when it has one.
    std::vector<uint32_t> trackOf(descs.size(), gpu::kKeyframeNoParent);
    // Throws for a parent that is not an earlier kinematic collider.
    const std::vector<KinematicPose> first = colliderPosesAfter(descs, 0, 1.0);
    for (std::size_t c = 0; c < descs.size(); ++c) {
        if (!descs[c].kinematic()) continue;
        const KeyframeTrackDesc desc = localKeyframeTrack(descs[c]);
        if (desc.frames.size() < 2 || desc.frames.front().time != 0.0)
            throw std::invalid_argument(fmt::format("collider '{}': keyframes need at least 2 frames from time 0",
                                                    clipInput(descs[c].name)));
        gpu::KeyframeTrack track{};
        track.collider = static_cast<uint32_t>(c);
        track.firstFrame = static_cast<uint32_t>(model.keyframes.size());
        track.frameCount = static_cast<uint32_t>(desc.frames.size());
        track.flags = (desc.loop ? gpu::kKeyframeLoop : 0u) |
                      (desc.rotation == KeyframeRotation::Slerp ? gpu::kKeyframeSlerp : 0u);
        track.duration = static_cast<float>(desc.duration());
        track.parent = gpu::kKeyframeNoParent;
        for (std::size_t p = 0; p < c; ++p)
            if (!descs[c].parent.empty() && descs[p].name == descs[c].parent) track.parent = trackOf[p];
        for (const KeyframeDesc& frame : desc.frames) {
            const float norm = glm::length(frame.rotation);
            if (!std::isfinite(norm) || norm < 1e-6f)
                throw std::invalid_argument(fmt::format("collider '{}': a keyframe's rotation cannot be normalised",
                                                        clipInput(descs[c].name)));
            model.keyframes.push_back({glm::vec4(frame.position, static_cast<float>(frame.time)),
                                       frame.rotation / norm});
        }
        trackOf[c] = static_cast<uint32_t>(model.keyframeTracks.size());
        model.keyframeTracks.push_back(track);
        // Its row starts at its first pose in the world, at rest.
        gpu::Collider& row = model.colliders.at(c);
        row.position = glm::vec4(glm::vec3(first[c].position), row.position.w);
        row.rotation = glm::vec4(first[c].rotation);
        row.linearVelocity = glm::vec4(0.0f, 0.0f, 0.0f, row.linearVelocity.w);
        row.angularVelocity = glm::vec4(0.0f);
    }
}

}  // namespace vksim
