#pragma once
// Two-way coupling of the rigid bodies and the particles (docs/physics.md
// §11, "Two-way coupling"). The particle stages record, per particle, what
// a body's collider did to it (gpu::BodyPush); "coupling: bodies" gathers
// that per body in a fixed order and gives it back to the body, shared
// with the particles that touched it as one rigid aggregate, and
// "coupling: particles" gives those particles their share. After each PBD
// iteration's projections (recordIteration) the pushes are displacements
// and move the bodies' poses, which the next iteration meets (the same pass
// writes the bodies' colliders again); at the end of a substep (recordSubstepEnd)
// what is left (friction and restitution, the projection after a
// mass-spring or PD solve) changes velocities. The stepper records the
// bodies' substeps between the particles' when a world has both.
#include <cstdint>

#include "shaders/rigid/rigid_types.h"
#include "shaders/shared/sim_types.h"
#include "solvers/solver.h"
#include "step/step_plan.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;
class ColliderSet;
class ParticleStore;
class RigidSolver;
struct SharedModel;

class BodyCoupling final : public IterationCoupling {
public:
    static constexpr const char* kBodiesPassName = "coupling: bodies";
    static constexpr const char* kParticlesPassName = "coupling: particles";

    // The bodies are the collider set's entries after the scene's.
    BodyCoupling(const VulkanContext& ctx, const SharedModel& model, const RigidSolver& rigid,
                 const ParticleStore& particles, const ColliderSet& colliders);
    BodyCoupling(const BodyCoupling&) = delete;
    BodyCoupling& operator=(const BodyCoupling&) = delete;

    void declarePasses(StepPlan& plan);
    // After the collision projections of one iteration of a solver whose
    // iterations project them (PBD), over its range.
    void recordIteration(StepRecorder& rec, const gpu::ParticlePush& range, StepPosition at) const override;
    // After every particle solver's substep `substep` of length h.
    void recordSubstepEnd(StepRecorder& rec, float h, uint32_t substep) const;

private:
    void record(StepRecorder& rec, gpu::CouplingPush push, StepPosition at) const;

    const RigidSolver& rigid_;
    const ParticleStore& particles_;
    const ColliderSet& colliders_;
    uint32_t firstBodyCollider_ = 0;
    ComputeKernel bodies_, follow_;
    GpuBuffer changes_;  // gpu::BodyChange per body
    // Each batch copy's particles as runs (copyParticleRuns, body_coupling.cpp):
    // per copy its first run; per run its first particle, that particle's
    // index in the copy and the count. One run in a scene's world.
    GpuBuffer copyRunStarts_, copyRuns_;
    uint32_t bodiesPass_ = 0, particlesPass_ = 0;
};

}  // namespace vksim
