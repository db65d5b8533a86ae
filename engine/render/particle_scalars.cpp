#include "render/particle_scalars.h"

#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include <glm/glm.hpp>

#include "shaders/pbd/pbd_types.h"
#include "shaders/shared/render_types.h"

namespace vksim {
namespace {

constexpr VkBufferUsageFlags kVertexUsage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;

// Each particle takes the graph colour of the stretch constraint to its
// lowest-numbered neighbour; -1 for particles in none (projective dynamics
// particles, lone points). (Not its first constraint in colour order: colour
// 0 alone is close to a perfect matching, so nearly every particle is in it.)
// On a grid this shows the colouring's alternating stripes, and every colour
// appears. The overflow group shows as one more colour, after the last.
std::vector<float> graphColourPerParticle(const SimModel& model, uint32_t particleCount) {
    std::vector<float> colours(particleCount, -1.0f);
    std::vector<uint32_t> lowestNeighbour(particleCount, UINT32_MAX);
    std::vector<ColourRange> groups = model.pbd.distanceGroups.colours;
    groups.push_back(model.pbd.distanceGroups.overflow);
    for (size_t c = 0; c < groups.size(); ++c) {
        const ColourRange range = groups[c];
        for (uint32_t k = range.first; k < range.first + range.count; ++k) {
            const uint32_t a = model.pbd.distance[k].p0, b = model.pbd.distance[k].p1;
            for (auto [p, other] : {std::pair{a, b}, std::pair{b, a}}) {
                if (p >= particleCount || other >= lowestNeighbour[p]) continue;
                lowestNeighbour[p] = other;
                colours[p] = float(c);
            }
        }
    }
    return colours;
}

}  // namespace

ParticleScalars::ParticleScalars(const VulkanContext& ctx, const SimModel& model, const ParticleStore& particles)
    : particles_(particles), particleCount_(particles.particleCount()) {
    const std::vector<float> colours = graphColourPerParticle(model, particleCount_);
    graphColours_ = makeStorageBuffer<float>(ctx, colours, "graph colour per particle", kVertexUsage);

    // CSR particle -> (other end, rest length) over the stretch constraints.
    std::vector<uint32_t> offsets(particleCount_ + 1, 0);
    for (const gpu::DistanceConstraint& d : model.pbd.distance) {
        ++offsets[d.p0 + 1];
        ++offsets[d.p1 + 1];
    }
    for (uint32_t i = 0; i < particleCount_; ++i) offsets[i + 1] += offsets[i];
    std::vector<glm::uvec2> neighbours(offsets.back());
    std::vector<uint32_t> fill(offsets.begin(), offsets.end() - 1);
    for (const gpu::DistanceConstraint& d : model.pbd.distance) {
        const uint32_t rest = std::bit_cast<uint32_t>(d.restLength);
        neighbours[fill[d.p0]++] = {d.p1, rest};
        neighbours[fill[d.p1]++] = {d.p0, rest};
    }
    offsets_ = makeStorageBuffer<uint32_t>(ctx, offsets, "strain adjacency offsets");
    neighbours_ = makeStorageBuffer<glm::uvec2>(ctx, neighbours, "strain adjacency");
    strain_ = makeStorageBuffer<float>(ctx, std::vector<float>(particleCount_, 1.0f), "stretch ratio per particle",
                                       kVertexUsage);
    kernel_ = std::make_unique<ComputeKernel>(ctx, "render/strain.comp", sizeof(gpu::StrainPush));
}

void ParticleScalars::recordStrain(VkCommandBuffer cmd) {
    kernel_->dispatch(cmd, {&particles_.positions(), &offsets_, &neighbours_, &strain_}, particleCount_,
                      gpu::StrainPush{particleCount_, 0, 0, 0});
}

}  // namespace vksim
