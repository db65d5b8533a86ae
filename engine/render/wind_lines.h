#pragma once
// The wind field drawn (DisplaySettings::wind; the overlay's "wind field"
// checkbox, --show-wind): at every particle that feels the wind, a line
// along the air's velocity there (step/wind_stage.h's air buffer, from the
// last substep the air blew), kSeconds of flight long. A compute pass
// writes the lines' vertices (position xyz, colour index w); particles
// without wind get a line of no length.
#include <cstdint>

#include <volk.h>

#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class ParticleStore;
class VulkanContext;
class WindStage;

class WindLines {
public:
    // 6 m/s draws 0.3 m: a flag's size, at the wind speeds of its scene.
    static constexpr float kSeconds = 0.05f;

    WindLines(const VulkanContext& ctx, const WindStage& wind, const ParticleStore& particles);

    // After the simulation's frame, between the barriers
    // Renderer::recordCompute records around the display passes.
    void record(VkCommandBuffer cmd);

    // The lines' vertices (vec4: position, colour index), a line list.
    const GpuBuffer& vertices() const { return vertices_; }
    uint32_t vertexCount() const { return 2 * particleCount_; }

private:
    const WindStage& wind_;
    const ParticleStore& particles_;
    uint32_t particleCount_ = 0;
    GpuBuffer vertices_;
    ComputeKernel kernel_;
};

}  // namespace vksim
