#pragma once
// The per-particle float the colour-by display modes draw with (vertex input
// binding 2): a graph colour per particle (particle_scalars.cpp says
// which), uploaded once, and the stretch ratio, recomputed on the GPU by
// render/strain.comp from the solver's positions in place (zero copy: no
// host round trip). Both buffers have one float per particle of the model.
#include <memory>

#include <volk.h>

#include "solvers/sim_model.h"
#include "state/particle_store.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;

class ParticleScalars {
public:
    ParticleScalars(const VulkanContext& ctx, const SimModel& model, const ParticleStore& particles);

    // Records the strain pass, between the barriers Renderer::recordCompute
    // records around the display passes.
    void recordStrain(VkCommandBuffer cmd);

    const GpuBuffer& graphColours() const { return graphColours_; }
    const GpuBuffer& strain() const { return strain_; }

private:
    const ParticleStore& particles_;
    uint32_t particleCount_ = 0;
    GpuBuffer graphColours_, offsets_, neighbours_, strain_;
    std::unique_ptr<ComputeKernel> kernel_;
};

}  // namespace vksim
