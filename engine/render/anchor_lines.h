#pragma once
// The tethers and attachments drawn (DisplaySettings::anchors; the overlay's
// "tethers and attachments" checkbox, --show-anchors): a line from every
// tethered or attached particle to the point it is held to, from the
// model's records (PBD attachment constraints, the tethers projected after
// the PD and mass-spring solves, docs/physics.md §1 "Tethers"; the
// attachments to bodies and colliders, "Attachments to bodies and
// colliders", at their rows' current poses), brighter
// where a tether is taut or an attachment pulls. A compute pass writes the
// lines' vertices (position xyz, colour index w) from the current positions.
#include <cstdint>

#include <volk.h>

#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class ParticleStore;
class VulkanContext;
struct SimModel;

class AnchorLines {
public:
    // `colliderRows`: the collider set's rows (World::colliderRows()), whose
    // current poses place the attachments to bodies and colliders.
    AnchorLines(const VulkanContext& ctx, const SimModel& model, const ParticleStore& particles,
                const GpuBuffer& colliderRows);

    // Whether the model holds any particle to an anchor (else nothing to draw).
    static bool anyIn(const SimModel& model);

    // After the simulation's frame, between the barriers
    // Renderer::recordCompute records around the display passes.
    void record(VkCommandBuffer cmd);

    // The lines' vertices (vec4: position, colour index), a line list.
    const GpuBuffer& vertices() const { return vertices_; }
    uint32_t vertexCount() const { return 2 * lineCount_; }

private:
    const ParticleStore& particles_;
    const GpuBuffer& colliderRows_;
    uint32_t lineCount_ = 0;
    GpuBuffer lines_;
    GpuBuffer vertices_;
    ComputeKernel kernel_;
};

}  // namespace vksim
