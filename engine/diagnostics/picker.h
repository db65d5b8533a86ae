#pragma once
// The GPU ray cast behind World::pick: two passes over the current
// positions and the model's triangle index buffer (every object's rendered
// triangles). interact/pick_candidates.comp: one thread per triangle and per
// particle, each workgroup keeps its nearest hit triangle (smallest ray
// parameter) and nearest particle within the radius of the ray, as
// lexicographically smallest (float bits, index) pairs; interact/pick_reduce.comp:
// one workgroup reduces the partial minima and picks the hit triangle's vertex
// closest to the hit point. Minima do not depend on evaluation order, so the
// pick is deterministic; no atomics. One small result is read back, so a
// pick waits for the GPU (a click, not every frame).
#include <memory>
#include <optional>

#include "solvers/sim_model.h"
#include "state/interaction.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;

class Picker {
public:
    // positions, triangles: the world's particle positions and triangle indices (ParticleStore).
    Picker(const VulkanContext& ctx, const SimModel& model, const GpuBuffer& positions, const GpuBuffer& triangles);
    ~Picker();

    // Waits for the queue. Throws std::invalid_argument for a non-finite ray
    // or a zero direction, or a radius that is negative or not finite.
    std::optional<PickHit> pick(const Ray& ray, float radius) const;

private:
    const VulkanContext& ctx_;
    const GpuBuffer& positions_;
    const GpuBuffer& triangles_;
    uint32_t particleCount_ = 0;
    uint32_t triangleCount_ = 0;
    std::vector<ObjectRange> objects_;
    GpuBuffer partials_, result_;
    std::unique_ptr<ComputeKernel> candidates_, reduce_;
};

}  // namespace vksim
