#pragma once
// The contacts drawn (DisplaySettings::contacts; K in the window,
// --show-contacts): each pair constraint of the last detection as a line
// between its two particles, in the colour of its Gauss-Seidel colour
// (grey: left to the Jacobi average, or the Jacobi average's). A compute
// pass writes the lines' vertices (position xyz, colour index w) and the
// draw's vertex count from the contact stage's buffers; the draw is
// indirect, so nothing passes through the host. At most kMaxLines lines.
#include <cstdint>

#include <volk.h>

#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class ContactStage;
class ParticleStore;
class VulkanContext;

class ContactLines {
public:
    // A debug view: the first million constraints are plenty to look at,
    // and the buffers stay within 32 MiB.
    static constexpr uint32_t kMaxLines = 1u << 20;

    ContactLines(const VulkanContext& ctx, const ContactStage& contacts, const ParticleStore& particles);

    // After the simulation's frame: the vertices and the vertex count.
    // Between the barriers Renderer::recordCompute records around the
    // display passes.
    void record(VkCommandBuffer cmd);

    // The lines' vertices (vec4: position, colour index or -1) and the
    // VkDrawIndirectCommand of their draw (a line list).
    const GpuBuffer& vertices() const { return vertices_; }
    const GpuBuffer& drawCommand() const { return drawCommand_; }

private:
    const ContactStage& contacts_;
    const ParticleStore& particles_;
    uint32_t lines_ = 0;
    GpuBuffer vertices_, drawCommand_;
    ComputeKernel kernel_;
};

}  // namespace vksim
