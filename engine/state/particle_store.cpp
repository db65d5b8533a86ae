#include "state/particle_store.h"

#include <numeric>
#include <stdexcept>

#include "shaders/shared/sim_types.h"

namespace vksim {

namespace {
uint32_t windParticles(const SharedModel& model) { return someObjectFeelsWind(model) ? model.particleCount() : 0; }

constexpr VkBufferUsageFlags kVertexUsage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;

std::vector<gpu::BodyPush> noBodyPushes(uint32_t count) {
    return std::vector<gpu::BodyPush>(count, gpu::BodyPush{0.0f, 0.0f, 0.0f, gpu::kNoBodyPush});
}

std::vector<uint32_t> identityRows(uint32_t count) {
    std::vector<uint32_t> rows(count);
    std::iota(rows.begin(), rows.end(), 0u);
    return rows;
}
}  // namespace

ParticleStore::ParticleStore(const VulkanContext& ctx, const SharedModel& model)
    : particleCount_(model.particleCount()),
      triangleCount_(model.triangleCount()),
      windParticles_(windParticles(model)) {
    const std::vector<gpu::ParticleContact> noContacts(particleCount_, gpu::ParticleContact{});
    const std::vector<glm::vec4> zeros(particleCount_, glm::vec4(0.0f));
    positions_ = makeStorageBuffer<glm::vec4>(ctx, model.positions, "positions (x, 1/m)", kVertexUsage);
    // Texel usage: the CPU cluster sweep reads them as texels
    // (shaders/pbd/cluster_sweep_cpu.comp).
    predicted_ = makeStorageBuffer<glm::vec4>(ctx, model.positions, "predicted positions (p, 1/m)",
                                              VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
    velocities_ = makeStorageBuffer<glm::vec4>(ctx, model.velocities, "velocities");
    contacts_ = makeStorageBuffer<gpu::ParticleContact>(ctx, noContacts, "particle contacts");
    bodyPushes_ = makeStorageBuffer<gpu::BodyPush>(ctx, noBodyPushes(particleCount_), "particle pushes from bodies");
    normals_ = makeStorageBuffer<glm::vec4>(ctx, zeros, "vertex normals", kVertexUsage);
    accelerations_ = makeStorageBuffer<glm::vec4>(ctx, zeros, "accelerations");
    integratorStage_ = makeStorageBuffer<glm::vec4>(ctx, zeros, "integrator stage");
    windAccelerations_ = makeStorageBuffer<glm::vec4>(ctx, std::vector<glm::vec4>(windParticles_, glm::vec4(0.0f)),
                                                      "wind accelerations");
    triangles_ = makeStorageBuffer<uint32_t>(ctx, model.triangles, "triangle indices", VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
    adjacencyOffsets_ = makeStorageBuffer<uint32_t>(ctx, model.adjacencyOffsets, "vertex-triangle offsets");
    adjacentTriangles_ = makeStorageBuffer<uint32_t>(ctx, model.adjacentTriangles, "vertex-triangle lists");
    adjacencyRows_ = makeStorageBuffer<uint32_t>(ctx, identityRows(particleCount_), "vertex-triangle rows");
    drags_ = makeStorageBuffer<float>(ctx, particleDrags(model), "particle drag (sigma)");
    copies_ = makeStorageBuffer<glm::uvec2>(ctx, particleCopies(model), "particle batch copies (copy, index)");
    const std::vector<glm::vec4> gravities = particleGravities(model);
    perParticleGravity_ = !gravities.empty();
    gravities_ = makeStorageBuffer<glm::vec4>(ctx, gravities, "particle gravity (g, 2|g|)");
    integrators_ = makeStorageBuffer<uint32_t>(
        ctx, std::vector<uint32_t>(particleCount_, gpu::kIntegratorSymplecticEuler), "particle integrators");
}

void ParticleStore::resetAdjacencyRows() { adjacencyRows_.uploadArray<uint32_t>(identityRows(particleCount_)); }

void ParticleStore::writePositions(std::span<const glm::vec3> x) {
    if (x.size() != particleCount_) throw std::invalid_argument("ParticleStore::writePositions: wrong particle count");
    std::vector<glm::vec4> values = readPositions();
    for (size_t i = 0; i < x.size(); ++i) values[i] = glm::vec4(x[i], values[i].w);
    positions_.uploadArray<glm::vec4>(values);
    predicted_.uploadArray<glm::vec4>(values);
}

void ParticleStore::writeVelocities(std::span<const glm::vec3> v) {
    if (v.size() != particleCount_) throw std::invalid_argument("ParticleStore::writeVelocities: wrong particle count");
    const std::vector<glm::vec4> x = readPositions();
    std::vector<glm::vec4> values = readVelocities();
    for (size_t i = 0; i < v.size(); ++i) values[i] = glm::vec4(x[i].w > 0.0f ? v[i] : glm::vec3(0.0f), values[i].w);
    velocities_.uploadArray<glm::vec4>(values);
}

void ParticleStore::reset(const SharedModel& model) {
    positions_.uploadArray<glm::vec4>(model.positions);
    predicted_.uploadArray<glm::vec4>(model.positions);
    velocities_.uploadArray<glm::vec4>(model.velocities);
    contacts_.uploadArray<gpu::ParticleContact>(std::vector<gpu::ParticleContact>(particleCount_));
    bodyPushes_.uploadArray<gpu::BodyPush>(noBodyPushes(particleCount_));
    const std::vector<glm::vec4> zeros(particleCount_, glm::vec4(0.0f));
    accelerations_.uploadArray<glm::vec4>(zeros);
    integratorStage_.uploadArray<glm::vec4>(zeros);
    if (windParticles_ > 0)
        windAccelerations_.uploadArray<glm::vec4>(std::vector<glm::vec4>(windParticles_, glm::vec4(0.0f)));
}

}  // namespace vksim
