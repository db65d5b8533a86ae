#pragma once
// What every solver's part of the model shares (solvers/sim_model.h): the
// particles' initial state, the objects' ranges and triangles, and the
// colliders. Each solver's builder appends its objects' particles here
// (model/object_builder.h) and its elements to its own sub-model; the
// particle store and the collider set upload this part.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "scene/air_params.h"
#include "scene/contact_params.h"
#include "shaders/kinematic/keyframe_types.h"
#include "shaders/particle/frame_attachment_types.h"
#include "shaders/particle/tether_types.h"
#include "shaders/shared/sim_types.h"

namespace vksim {

// The triangles a mesh collider is drawn with, in its local frame.
struct ColliderSurface {
    std::vector<glm::vec3> positions;
    std::vector<uint32_t> triangles;  // 3 per triangle
};

// One deformable object's slice of the global arrays.
struct ObjectRange {
    std::string name;
    uint32_t firstParticle = 0;
    uint32_t particleCount = 0;
    uint32_t firstTriangle = 0;
    uint32_t triangleCount = 0;
    glm::vec3 color{0.8f};
    // Air drag sigma [kg/s] (f = -sigma v per particle) that the shared
    // predict stage applies: PBD and PD cloths (docs/physics.md §1). A
    // mass-spring object's drag is a force of its own solver
    // (MsParticle::drag) and is 0 here.
    float drag = 0.0f;
    // Its "contacts" block (contacts/contact_model.h reads it).
    ContactParams contacts;
    // Its drag and lift coefficients in the wind (step/wind_stage.h); a cloth's only.
    AeroParams aero;
    // Its own gravity [m/s^2] instead of the solver settings': a batch
    // copy's /solver/gravity (scene/scene_batch.h). Unset in a scene's world.
    std::optional<glm::vec3> gravity;
    // The batch copy it belongs to (scene/scene_batch.h), 0 in a scene's
    // world: its contacts touch only its copy's (contacts/contact_model.h).
    uint32_t copy = 0;
    // The last this many particles of its range are spare particles for
    // split vertices (a tearing cloth's "capacity", docs/physics.md §1
    // "Tearing"): in no triangle until a split takes one.
    uint32_t spareParticles = 0;
};

struct SharedModel {
    // Particle state (per step): xyz + inverse mass in w; velocities xyz.
    std::vector<glm::vec4> positions;
    std::vector<glm::vec4> velocities;

    std::vector<gpu::Collider> colliders;
    // The signed distance grids of the mesh colliders, one after another in
    // the layout sdf.glsl reads (signed_distance_grid.h); a collider of type
    // kColliderMesh finds its grid at offset size.x. Colliders that use the
    // same grid share it. Empty when there are no mesh colliders.
    std::vector<float> meshSdfGrids;
    // What each collider is drawn with when it is not an analytic shape: the
    // mesh of a mesh collider, in its local frame (scaled), else empty.
    std::vector<ColliderSurface> colliderSurfaces;
    // The kinematic colliders' tracks, in collider order, and their frames
    // one track after another (step/keyframe_stage.h moves them). Empty
    // when no collider has keyframes.
    std::vector<gpu::KeyframeTrack> keyframeTracks;
    std::vector<gpu::Keyframe> keyframes;

    // Rendering topology: 3 indices per triangle, and the CSR vertex -> triangle
    // adjacency the normals pass gathers over (offsets has positions.size()+1 entries).
    std::vector<uint32_t> triangles;
    std::vector<uint32_t> adjacencyOffsets;
    std::vector<uint32_t> adjacentTriangles;

    std::vector<ObjectRange> objects;

    // The tethers projected after a solve (step/tether_stage.h): those of
    // projective dynamics and mass-spring cloths, by particle, so that each
    // solver's are one slice. PBD's are attachment constraints instead.
    std::vector<gpu::SolvedTether> solvedTethers;

    // Cloth particles attached to points of bodies and colliders, or kept
    // within a radius of them (step/frame_attachment_stage.h), by particle,
    // so that each solver's are one slice (model/frame_attachments.h).
    std::vector<gpu::FrameAttachment> frameAttachments;

    // The scene's rigid bodies: with particles, they exchange impulses with
    // them every substep (docs/physics.md §11, "Two-way coupling").
    uint32_t bodyCount = 0;

    uint32_t particleCount() const { return static_cast<uint32_t>(positions.size()); }
    uint32_t triangleCount() const { return static_cast<uint32_t>(triangles.size() / 3); }
};

// Per particle, the air drag of its object that the predict stage applies
// (ObjectRange::drag), 0 where no object sets one.
inline std::vector<float> particleDrags(const SharedModel& model) {
    std::vector<float> drags(model.particleCount(), 0.0f);
    for (const ObjectRange& object : model.objects)
        for (uint32_t i = object.firstParticle; i < object.firstParticle + object.particleCount; ++i)
            drags.at(i) = object.drag;
    return drags;
}

// Per particle, its object's batch copy (ObjectRange::copy) and its index
// among the particles of that copy, in index order: the index a World of
// the copy alone gives it. Which bodies' colliders it meets, and in which
// order the bodies sum what it gave them (docs/physics.md §11, "Bodies as
// colliders for particles"). (0, i) in a scene's world.
inline std::vector<glm::uvec2> particleCopies(const SharedModel& model) {
    std::vector<uint32_t> copyOf(model.particleCount(), 0u);
    for (const ObjectRange& object : model.objects)
        for (uint32_t i = object.firstParticle; i < object.firstParticle + object.particleCount; ++i)
            copyOf.at(i) = object.copy;
    std::vector<glm::uvec2> copies(model.particleCount());
    std::vector<uint32_t> counted;
    for (uint32_t i = 0; i < copyOf.size(); ++i) {
        if (copyOf[i] >= counted.size()) counted.resize(copyOf[i] + 1, 0u);
        copies[i] = glm::uvec2(copyOf[i], counted[copyOf[i]]++);
    }
    return copies;
}

// An object's own gravity (ObjectRange::gravity) in xyz and 2|g| in w,
// what the restitution threshold 2|g|h is made of
// (particle/particle_gravity.glsl); 0 where it has none.
glm::vec4 ownGravity(const ObjectRange& object);

// Per particle, its object's ownGravity; empty where no object has its
// own, and then the stages read the solver settings' (Stepper::particlePush).
// Objects have their own all or none (a batch gives every copy's objects
// theirs); a mix is refused, as the stages would read a particle of the
// second kind wrongly.
std::vector<glm::vec4> particleGravities(const SharedModel& model);

// `object`'s triangles in `triangles` (all the model's, as the GPU holds
// them now: PBD tearing drops triangles and moves them to split particles),
// numbered from its first particle, the dropped ones (three equal indices)
// left out: the surface an export writes. Throws std::logic_error for an
// index outside the object's range.
std::vector<uint32_t> objectSurface(const ObjectRange& object, std::span<const uint32_t> triangles);

// Whether some object feels the wind (an "aero" coefficient above 0): the
// wind's passes and buffers exist only then (step/wind_stage.h).
inline bool someObjectFeelsWind(const SharedModel& model) {
    for (const ObjectRange& object : model.objects)
        if (object.aero.feelsWind()) return true;
    return false;
}

}  // namespace vksim
