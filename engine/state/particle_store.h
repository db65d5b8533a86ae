#pragma once
// The particle state of a world, held once for every object and every
// solver: x (positions, inverse mass in w), p (predicted positions, each
// solver's working positions), v (velocities), the accelerations and
// integrator stage of the explicit integrators, the per-particle contact
// records of the collision stages, and the vertex normals and triangle
// indices the renderer draws. Objects own contiguous ranges of particles
// (SimModel::objects); each solver steps the ranges of its objects and
// nothing else. Positions and normals are storage buffers that are also
// vertex buffers, the indices an index buffer: nothing goes through the host
// between simulating and drawing.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "model/shared_model.h"
#include "state/particle_range.h"
#include "vk/buffer.h"

namespace vksim {

class VulkanContext;

class ParticleStore {
public:
    ParticleStore(const VulkanContext& ctx, const SharedModel& model);

    // Back to the model's initial state (waits for the queue): x, p, v, contacts.
    void reset(const SharedModel& model);
    // The per-step state's buffers (World::saveState), the normals with
    // them, so that a restored world draws what the saved one drew, and the
    // integrators, which say what the integrator stages hold.
    std::vector<GpuBuffer*> stateBuffers() {
        return {&positions_, &predicted_, &velocities_, &contacts_, &bodyPushes_, &normals_, &accelerations_,
                &integratorStage_, &integrators_};
    }
    // New positions x (and p = x) or velocities, particleCount() of them,
    // between frames (waits for the queue); each particle keeps its inverse
    // mass, and a pinned particle (inverse mass 0) its zero velocity.
    void writePositions(std::span<const glm::vec3> x);
    void writeVelocities(std::span<const glm::vec3> v);

    const GpuBuffer& positions() const { return positions_; }
    const GpuBuffer& predicted() const { return predicted_; }
    // What the non-finite replay calls a value of predicted().
    static constexpr std::string_view kPredictedName = "predicted position";
    const GpuBuffer& velocities() const { return velocities_; }
    const GpuBuffer& contacts() const { return contacts_; }
    // What the rigid bodies' colliders did to each particle in the substep
    // (gpu::BodyPush), which the two-way coupling gathers per body.
    const GpuBuffer& bodyPushes() const { return bodyPushes_; }
    // a of the explicit integrators (written by a solver's force pass) and
    // what their predict stage keeps for the update (particle_math.glsl);
    // zero and unused for the other integrators.
    const GpuBuffer& accelerations() const { return accelerations_; }
    const GpuBuffer& integratorStage() const { return integratorStage_; }
    // Per particle, the air drag sigma [kg/s] the predict stage applies
    // (ObjectRange::drag; 0 for mass-spring particles, whose solver applies
    // its own). Uploaded once.
    const GpuBuffer& drags() const { return drags_; }
    // Per particle, its batch copy and its index in the copy
    // (particleCopies): it meets the bodies of its copy only. Uploaded once.
    const GpuBuffer& copies() const { return copies_; }
    // Per particle, its acceleration from the wind this substep
    // (step/wind_stage.h), which predict adds to gravity where the range's
    // push says the wind blows; one unused vec4 where no object feels wind.
    const GpuBuffer& windAccelerations() const { return windAccelerations_; }
    // Per particle, its object's own gravity and 2|g| (particleGravities),
    // which the stages read where the push flags kGravityPerParticle; one
    // unused vec4 where the objects fall by the solver settings' gravity.
    // Uploaded once.
    const GpuBuffer& gravities() const { return gravities_; }
    bool perParticleGravity() const { return perParticleGravity_; }
    // Per particle, the kIntegrator* that predict and update velocity apply
    // where the range's integrator is kIntegratorPerParticle: written by the
    // range's solver (recorded into a frame), which owns the values; reset()
    // keeps them, as it keeps the solvers' settings.
    const GpuBuffer& integrators() const { return integrators_; }
    const GpuBuffer& normals() const { return normals_; }
    const GpuBuffer& triangleIndices() const { return triangles_; }
    // Written by PBD tearing (solvers/pbd/pbd_tearing.h), which drops torn triangles.
    GpuBuffer& triangleIndices() { return triangles_; }
    const GpuBuffer& adjacencyOffsets() const { return adjacencyOffsets_; }
    const GpuBuffer& adjacentTriangles() const { return adjacentTriangles_; }
    // Per particle, the vertex whose adjacency row lists its triangles: itself,
    // but for a particle split from a vertex (solvers/pbd/pbd_splitting.h),
    // which reads its first vertex's row and keeps the triangles that hold it.
    const GpuBuffer& adjacencyRows() const { return adjacencyRows_; }
    GpuBuffer& adjacencyRows() { return adjacencyRows_; }
    // Every particle its own row (PBD splitting's reset; waits for the queue).
    void resetAdjacencyRows();
    uint32_t particleCount() const { return particleCount_; }
    uint32_t triangleCount() const { return triangleCount_; }

    // Read-back (waits for the queue): particleCount() values (a buffer is
    // at least 16 bytes, so a scene of rigid bodies alone has one unused
    // vec4 that must not be read as a particle).
    std::vector<glm::vec4> readPositions() const { return firstParticles(positions_.downloadArray<glm::vec4>()); }
    std::vector<glm::vec4> readVelocities() const { return firstParticles(velocities_.downloadArray<glm::vec4>()); }

private:
    std::vector<glm::vec4> firstParticles(std::vector<glm::vec4> values) const {
        values.resize(particleCount_);
        return values;
    }

    uint32_t particleCount_ = 0;
    uint32_t triangleCount_ = 0;
    // Per-step state.
    GpuBuffer positions_, predicted_, velocities_, contacts_, bodyPushes_, normals_, accelerations_, integratorStage_;
    GpuBuffer windAccelerations_;
    uint32_t windParticles_ = 0;  // particleCount_ where some object feels the wind, else 0
    bool perParticleGravity_ = false;
    // Topology, uploaded once: what the normals pass and the renderer read.
    GpuBuffer triangles_, adjacencyOffsets_, adjacentTriangles_, adjacencyRows_, drags_, copies_, gravities_;
    GpuBuffer integrators_;  // written by the solvers (integrators())
};

}  // namespace vksim
