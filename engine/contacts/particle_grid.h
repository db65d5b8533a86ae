#pragma once
// The contact particles in a hash grid (contact_grid.glsl) on the GPU,
// rebuilt each substep as a stable counting sort: every bucket's count with
// integer atomics, a prefix scan into each bucket's first slot, a fill, and
// each bucket's particles ordered by index (grid_*.comp), so the grid is the
// same whatever order the GPU runs in. Each contact group hashes into its
// own part of the table (gpu::ContactGroup). The cell edge is read from a
// buffer, so one build serves two grids: the pairs' (contact_detection.h,
// cells of the largest detection distance) and the triangles' and edges'
// (triangle_detection.h, cells the GPU sizes from the longest edge), which
// the GPU skips where its cells are the pairs': its build can also run as
// indirect dispatches whose group counts a pass before it wrote.
#include <string>
#include <vector>

#include "contacts/contact_model.h"
#include "step/prefix_scan.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;

class ParticleGrid {
public:
    // A grid of `model`'s contact particles over its tableSize buckets.
    ParticleGrid(const VulkanContext& ctx, const ContactModel& model, const std::string& name);

    // The grid of the working positions `p`, with cells of edge
    // cellSize[0] (`particles`, `groups`: ContactModel's, uploaded), as runs
    // of `pass`; the scan's total (the particle count) goes to
    // totals[totalIndex].
    struct Inputs {
        const GpuBuffer& p;
        const GpuBuffer& particles;
        const GpuBuffer& groups;
        const GpuBuffer& cellSize;
    };
    // With `dispatches`, the build's kDispatches runs are indirect, each
    // with the VkDispatchIndirectCommand at its place in it (the group
    // counts of groupCounts(), or zero groups to skip the build).
    void record(StepRecorder& rec, uint32_t pass, const Inputs& in, const GpuBuffer& totals, uint32_t totalIndex,
                const GpuBuffer* dispatches = nullptr) const;

    // The build's dispatches: clear, count, the scan's three, fill, order.
    static constexpr uint32_t kDispatches = 7;
    // Their VkDispatchIndirectCommands, three uints each, in that order,
    // as record() runs them directly.
    std::vector<uint32_t> groupCounts() const;
    // Whether an indirect dispatch starts as many groups as each (within
    // maxComputeWorkGroupCount, which a direct dispatch cuts into slices).
    bool fitsIndirect() const;

    // Each bucket's first slot and count, and the contact particles in
    // bucket order.
    const GpuBuffer& bucketStart() const { return bucketStart_; }
    const GpuBuffer& bucketCount() const { return bucketFill_; }
    const GpuBuffer& sorted() const { return sorted_; }

private:
    const ContactModel& model_;
    GpuBuffer bucketOf_, bucketStart_, bucketFill_, unordered_, sorted_;
    PrefixScan bucketScan_;
    ComputeKernel clear_, count_, fill_, order_;
};

}  // namespace vksim
