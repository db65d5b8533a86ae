#pragma once
// The wind on cloth (docs/physics.md §15), written once for every solver:
// each substep, before any prediction, three passes over every particle or
// triangle of the world, then once a frame the clock of the gusts.
//
//   wind: air        the air's velocity at each particle that feels the wind
//   wind: triangles  each triangle's drag and lift
//   wind: forces     each particle's acceleration: a third of the forces of
//                    the triangles around it, gathered in a fixed order
//   wind: clock      the substeps run so far += the frame's substeps
//
// The predict stage (and the mass-spring force pass) add the accelerations
// to gravity, where the range's push says the air acts
// (ParticlePush::gravity.w flags kGravityWind): an explicit external force, evaluated at the
// substep's start, for every solver alike. Built only where some object
// feels the wind (someObjectFeelsWind); a scene without one records nothing here.
#include <cstdint>
#include <memory>
#include <vector>

#include <glm/glm.hpp>

#include "model/shared_model.h"
#include "scene/scene.h"
#include "shaders/particle/wind_types.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"

namespace vksim {

class VulkanContext;
class ParticleStore;

class WindStage {
public:
    WindStage(const VulkanContext& ctx, const SharedModel& model, const ParticleStore& particles);
    ~WindStage();

    // Per particle, its object's (C_d, C_l, 0, 0); zero where it has none.
    static std::vector<glm::vec4> particleAero(const SharedModel& model);
    // The push of the wind passes for substep `substep` of a frame.
    gpu::WindPush push(const SolverSettings& settings, uint32_t substep) const;

    void declarePasses(StepPlan& plan);
    // Whether the wind passes run with these settings: wherever the air has
    // a density. Still air too: a cloth moving through it feels the drag and
    // lift of its own motion (the air's velocity relative to it).
    static bool acts(const SolverSettings& settings) { return settings.air.density > 0.0f; }
    void recordSubstep(StepRecorder& rec, const SolverSettings& settings, uint32_t substep) const;
    void recordFrameEnd(StepRecorder& rec, const SolverSettings& settings) const;
    // The clock back to 0 (waits for the queue).
    void reset();
    // What reset() restores, for World::saveState(): the clock.
    void addStateBuffers(std::vector<GpuBuffer*>& out) { out.push_back(&clock_); }

    const GpuBuffer& airVelocities() const { return air_; }
    const GpuBuffer& particleAeroBuffer() const { return aero_; }
    const GpuBuffer& clock() const { return clock_; }

private:
    const ParticleStore& particles_;
    uint32_t particleCount_ = 0, triangleCount_ = 0;
    GpuBuffer aero_, air_, triangleForces_, clock_;
    std::unique_ptr<ComputeKernel> airKernel_, trianglesKernel_, forcesKernel_, clockKernel_;
    uint32_t airPass_ = 0, trianglesPass_ = 0, forcesPass_ = 0, clockPass_ = 0;
};

}  // namespace vksim
