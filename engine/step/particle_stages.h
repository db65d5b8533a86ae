#pragma once
// The particle stages every solver shares, written once: one kernel each
// (shaders/particle/), recorded over one solver's particle range at a time
// with the working-position buffer that solver uses. A solver never builds
// these kernels itself; the stepper runs them around its solve, and a solver
// whose iterations project collisions (PBD) calls collideProject itself.
//
//   predict           v += h g (damped); p = x + h v        (Predict)
//   collideGenerate   contact candidates at p                (CollideGenerate)
//   collideProject    p out of every collider it is inside   (CollideProject)
//   updateVelocity    v = (p - x)/h; x = p                   (UpdateVelocity)
//   contactVelocity   friction and restitution               (ContactVelocity)
//   normals           area-weighted vertex normals, all particles (Normals)
//   copyRange         a range of one vec4 buffer into another
#include <array>
#include <memory>
#include <string_view>

#include "shaders/shared/sim_types.h"
#include "step/step_recorder.h"

namespace vksim {

class VulkanContext;
class ParticleStore;
class ColliderSet;

// The stage passes of one solver (ids in the step plan).
struct ParticleStagePasses {
    uint32_t predict = 0, collideGenerate = 0, collideProject = 0, updateVelocity = 0, contactVelocity = 0;
    // The solved positions into the store's p, for the contacts after the
    // solves (declared by the stepper where the solver needs it).
    uint32_t solvedIntoPredicted = 0;
    // Its tethers after the solve (step/tether_stage.h), declared by the
    // stepper where its range has some.
    uint32_t tethers = 0;
};

class ParticleStages {
public:
    ParticleStages(const VulkanContext& ctx, const ParticleStore& particles, const ColliderSet& colliders);
    ~ParticleStages();

    // Declares the five per-substep stage passes of a solver whose pass
    // names start with `prefix` ("" for PBD, "pd: " for projective dynamics):
    // predict and collide-generate before the solver's own passes, the rest
    // after them (step order).
    static void declareBeforeSolve(StepPlan& plan, std::string_view prefix, std::string_view owner,
                                   ParticleStagePasses& passes);
    static void declareAfterSolve(StepPlan& plan, std::string_view prefix, std::string_view owner,
                                  ParticleStagePasses& passes);
    static uint32_t declareNormals(StepPlan& plan);

    // `push` names the range (firstParticle, particleCount), h and the
    // solver settings; `working` is the solver's working positions (p),
    // probed as `workingName`.
    void predict(StepRecorder& rec, uint32_t pass, const gpu::ParticlePush& push, const GpuBuffer& working,
                 std::string_view workingName, uint32_t substep) const;
    void collideGenerate(StepRecorder& rec, uint32_t pass, const gpu::ParticlePush& push,
                         const GpuBuffer& working) const;
    void collideProject(StepRecorder& rec, uint32_t pass, const gpu::ParticlePush& push, const GpuBuffer& working,
                        std::string_view workingName, StepPosition at) const;
    void updateVelocity(StepRecorder& rec, uint32_t pass, const gpu::ParticlePush& push, const GpuBuffer& working,
                        uint32_t substep) const;
    void contactVelocity(StepRecorder& rec, uint32_t pass, const gpu::ParticlePush& push, uint32_t substep) const;
    void normals(StepRecorder& rec, uint32_t pass) const;
    // The range's particles of `from` into `to` (probed as `toName`).
    void copyRange(StepRecorder& rec, uint32_t pass, const gpu::ParticlePush& push, const GpuBuffer& from,
                   const GpuBuffer& to, std::string_view toName, uint32_t substep) const;

private:
    // Predict and update velocity are built per integrator
    // (shaders/particle/integrator_constant.glsl), when a range first asks
    // for one: at most kIntegratorCount each.
    using PerIntegrator = std::array<std::unique_ptr<ComputeKernel>, gpu::kIntegratorCount>;
    const ComputeKernel& forIntegrator(PerIntegrator& kernels, const char* shader, uint32_t integrator) const;

    const VulkanContext& ctx_;
    const ParticleStore& particles_;
    const ColliderSet& colliders_;
    mutable PerIntegrator predict_, updateVelocity_;
    std::unique_ptr<ComputeKernel> collideGenerate_, collideProject_, contactVelocity_, normals_, copyRange_;
};

}  // namespace vksim
