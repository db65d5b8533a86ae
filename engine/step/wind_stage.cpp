#include "step/wind_stage.h"

#include "state/particle_store.h"

namespace vksim {

WindStage::WindStage(const VulkanContext& ctx, const SharedModel& model, const ParticleStore& particles)
    : particles_(particles), particleCount_(model.particleCount()), triangleCount_(model.triangleCount()) {
    const std::vector<glm::vec4> zeros(particleCount_, glm::vec4(0.0f));
    aero_ = makeStorageBuffer<glm::vec4>(ctx, particleAero(model), "wind: particle aero (C_d, C_l)");
    air_ = makeStorageBuffer<glm::vec4>(ctx, zeros, "wind: air velocities");
    triangleForces_ = makeStorageBuffer<glm::vec4>(ctx, std::vector<glm::vec4>(triangleCount_, glm::vec4(0.0f)),
                                                   "wind: triangle forces");
    clock_ = makeStorageBuffer<uint32_t>(ctx, std::vector<uint32_t>(4, 0u), "wind: clock (substeps)");
    airKernel_ = std::make_unique<ComputeKernel>(ctx, "particle/wind_air.comp", sizeof(gpu::WindPush));
    trianglesKernel_ = std::make_unique<ComputeKernel>(ctx, "particle/wind_triangles.comp", sizeof(gpu::WindPush));
    forcesKernel_ = std::make_unique<ComputeKernel>(ctx, "particle/wind_forces.comp", sizeof(gpu::WindPush));
    clockKernel_ = std::make_unique<ComputeKernel>(ctx, "particle/wind_clock.comp", sizeof(gpu::WindPush));
}

WindStage::~WindStage() = default;

std::vector<glm::vec4> WindStage::particleAero(const SharedModel& model) {
    std::vector<glm::vec4> aero(model.particleCount(), glm::vec4(0.0f));
    for (const ObjectRange& object : model.objects)
        for (uint32_t i = object.firstParticle; i < object.firstParticle + object.particleCount; ++i)
            aero.at(i) = glm::vec4(object.aero.drag, object.aero.lift, 0.0f, 0.0f);
    return aero;
}

gpu::WindPush WindStage::push(const SolverSettings& settings, uint32_t substep) const {
    const AirSettings& air = settings.air;
    gpu::WindPush push{};
    push.wind = glm::vec4(air.wind, air.density);
    push.gustStrength = air.gusts.strength;
    push.gustScale = air.gusts.scale;
    push.gustPeriod = air.gusts.period;
    push.gustSeed = air.gusts.seed;
    push.dt = settings.timeStep / static_cast<float>(settings.substeps);
    push.substep = substep;
    push.substeps = settings.substeps;
    push.particleCount = particleCount_;
    push.triangleCount = triangleCount_;
    return push;
}

void WindStage::declarePasses(StepPlan& plan) {
    airPass_ = plan.declare("wind: air", StageKind::Predict, "world");
    trianglesPass_ = plan.declare("wind: triangles", StageKind::Predict, "world");
    forcesPass_ = plan.declare("wind: forces", StageKind::Predict, "world");
    clockPass_ = plan.declare("wind: clock", StageKind::Predict, "world");
}

void WindStage::recordSubstep(StepRecorder& rec, const SolverSettings& settings, uint32_t substep) const {
    const gpu::WindPush p = push(settings, substep);
    rec.run(airPass_, *airKernel_, {&particles_.positions(), &aero_, &clock_, &air_}, particleCount_, p);
    rec.run(trianglesPass_, *trianglesKernel_,
            {&particles_.positions(), &particles_.velocities(), &aero_, &air_, &particles_.triangleIndices(),
             &triangleForces_},
            triangleCount_, p);
    rec.run(forcesPass_, *forcesKernel_,
            {&particles_.positions(), &triangleForces_, &particles_.adjacencyOffsets(),
             &particles_.adjacentTriangles(), &particles_.adjacencyRows(), &particles_.triangleIndices(),
             &particles_.windAccelerations()},
            particleCount_, p, {substep}, {&particles_.windAccelerations(), "wind acceleration"});
}

void WindStage::recordFrameEnd(StepRecorder& rec, const SolverSettings& settings) const {
    rec.run(clockPass_, *clockKernel_, {&clock_}, 1, push(settings, 0));
}

void WindStage::reset() {
    clock_.uploadArray<uint32_t>(std::vector<uint32_t>(4, 0u));
    air_.uploadArray<glm::vec4>(std::vector<glm::vec4>(particleCount_, glm::vec4(0.0f)));
}

}  // namespace vksim
