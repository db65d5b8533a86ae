#include "step/particle_stages.h"

#include <span>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "state/collider_set.h"
#include "state/particle_store.h"

namespace vksim {

ParticleStages::ParticleStages(const VulkanContext& ctx, const ParticleStore& particles,
                               const ColliderSet& colliders)
    : ctx_(ctx), particles_(particles), colliders_(colliders) {
    // The collider stages evaluate SDFs: built for the world's shapes only.
    const auto colliderConstants = colliders.particleSpecialization();
    auto kernel = [&](const char* shader, uint32_t pushSize, std::span<const SpecializationConstant> constants = {}) {
        return std::make_unique<ComputeKernel>(ctx, shader, pushSize, constants);
    };
    collideGenerate_ = kernel("particle/collide_generate.comp", sizeof(gpu::ParticlePush), colliderConstants);
    collideProject_ = kernel("particle/project_collision.comp", sizeof(gpu::ParticlePush), colliderConstants);
    contactVelocity_ = kernel("particle/contact_velocity.comp", sizeof(gpu::ParticlePush), colliderConstants);
    normals_ = kernel("particle/normals.comp", sizeof(gpu::NormalsPush));
    copyRange_ = kernel("particle/copy_range.comp", sizeof(gpu::ParticlePush));
}

ParticleStages::~ParticleStages() = default;

const ComputeKernel& ParticleStages::forIntegrator(PerIntegrator& kernels, const char* shader,
                                                   uint32_t integrator) const {
    if (integrator >= kernels.size())
        throw std::invalid_argument(fmt::format("{}: integrator {} is not one of the {} kIntegrator*", shader,
                                                integrator, kernels.size()));
    std::unique_ptr<ComputeKernel>& kernel = kernels[integrator];
    if (!kernel) {
        const SpecializationConstant constant[] = {{gpu::kIntegratorConstantId, integrator}};
        kernel = std::make_unique<ComputeKernel>(ctx_, shader, sizeof(gpu::ParticlePush), constant);
    }
    return *kernel;
}

void ParticleStages::declareBeforeSolve(StepPlan& plan, std::string_view prefix, std::string_view owner,
                                        ParticleStagePasses& passes) {
    const std::string p(prefix), o(owner);
    passes.predict = plan.declare(p + "predict", StageKind::Predict, o);
    passes.collideGenerate = plan.declare(p + "collide: generate", StageKind::CollideGenerate, o);
}

void ParticleStages::declareAfterSolve(StepPlan& plan, std::string_view prefix, std::string_view owner,
                                       ParticleStagePasses& passes) {
    const std::string p(prefix), o(owner);
    passes.collideProject = plan.declare(p + "collide: project", StageKind::CollideProject, o);
    passes.updateVelocity = plan.declare(p + "update velocity", StageKind::UpdateVelocity, o);
    passes.contactVelocity = plan.declare(p + "friction/restitution", StageKind::ContactVelocity, o);
}

uint32_t ParticleStages::declareNormals(StepPlan& plan) {
    return plan.declare("normals", StageKind::Normals, "world");
}

void ParticleStages::predict(StepRecorder& rec, uint32_t pass, const gpu::ParticlePush& push,
                             const GpuBuffer& working, std::string_view workingName, uint32_t substep) const {
    rec.run(pass, forIntegrator(predict_, "particle/predict.comp", push.integrator),
            {&particles_.positions(), &particles_.velocities(), &working, &particles_.accelerations(),
             &particles_.integratorStage(), &particles_.drags(), &particles_.integrators(),
             &particles_.windAccelerations(), &particles_.gravities()},
            push.particleCount, push, {substep}, {&particles_.velocities(), "velocity"}, {&working, workingName});
}

// Not probed: it writes only the contact list, which the projection and
// friction passes turn into positions and velocities.
void ParticleStages::collideGenerate(StepRecorder& rec, uint32_t pass, const gpu::ParticlePush& push,
                                     const GpuBuffer& working) const {
    rec.run(pass, *collideGenerate_,
            {&working, &particles_.velocities(), &colliders_.colliders(), &particles_.contacts(),
             &colliders_.meshSdfGrids(), &particles_.bodyPushes(), &particles_.copies()},
            push.particleCount, push);
}

void ParticleStages::collideProject(StepRecorder& rec, uint32_t pass, const gpu::ParticlePush& push,
                                    const GpuBuffer& working, std::string_view workingName, StepPosition at) const {
    rec.run(pass, *collideProject_,
            {&working, &colliders_.colliders(), &particles_.contacts(), &colliders_.meshSdfGrids(),
             &particles_.bodyPushes(), &particles_.positions(), &particles_.copies()},
            push.particleCount, push, at, {&working, workingName});
}

void ParticleStages::updateVelocity(StepRecorder& rec, uint32_t pass, const gpu::ParticlePush& push,
                                    const GpuBuffer& working, uint32_t substep) const {
    rec.run(pass, forIntegrator(updateVelocity_, "particle/update_velocity.comp", push.integrator),
            {&particles_.positions(), &working, &particles_.velocities(), &particles_.accelerations(),
             &particles_.integratorStage(), &particles_.integrators()},
            push.particleCount, push, {substep}, {&particles_.positions(), "position"},
            {&particles_.velocities(), "velocity"});
}

void ParticleStages::contactVelocity(StepRecorder& rec, uint32_t pass, const gpu::ParticlePush& push,
                                     uint32_t substep) const {
    rec.run(pass, *contactVelocity_,
            {&particles_.positions(), &particles_.velocities(), &colliders_.colliders(), &particles_.contacts(),
             &colliders_.meshSdfGrids(), &particles_.bodyPushes(), &particles_.gravities(), &particles_.copies()},
            push.particleCount, push, {substep}, {&particles_.velocities(), "velocity"});
}

void ParticleStages::copyRange(StepRecorder& rec, uint32_t pass, const gpu::ParticlePush& push,
                               const GpuBuffer& from, const GpuBuffer& to, std::string_view toName,
                               uint32_t substep) const {
    rec.run(pass, *copyRange_, {&from, &to}, push.particleCount, push, {substep}, {&to, toName});
}

void ParticleStages::normals(StepRecorder& rec, uint32_t pass) const {
    const uint32_t n = particles_.particleCount();
    rec.run(pass, *normals_,
            {&particles_.positions(), &particles_.triangleIndices(), &particles_.adjacencyOffsets(),
             &particles_.adjacentTriangles(), &particles_.adjacencyRows(), &particles_.normals()},
            n, gpu::NormalsPush{n, 0, 0, 0}, {}, {&particles_.normals(), "normal"});
}

}  // namespace vksim
