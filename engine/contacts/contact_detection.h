#pragma once
// Contact detection on the GPU, once per substep (docs/physics.md,
// "Contacts between objects"): a hash grid over the contact particles built
// as a stable counting sort (count per bucket with integer atomics, prefix
// scan, fill, order within each bucket by index), then each particle's
// neighbours within t_a + t_b + margin, counted, scanned into offsets and
// written in a fixed order; each pair also becomes one constraint, owned by
// its lower particle. For the Gauss-Seidel response, the constraints are
// then coloured by Jones-Plassmann rounds. Every list and colour it writes
// is the same whatever order the GPU runs in.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "contacts/contact_model.h"
#include "step/prefix_scan.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;

// The neighbour lists as read back (tests, the CPU reference).
struct ContactLists {
    std::vector<uint32_t> counts;         // per contact particle: its neighbours found (may pass what fit)
    std::vector<uint32_t> offsets;        // per contact particle: its first entry
    std::vector<uint32_t> neighbours;     // contact particle indices, capacity entries
    std::vector<glm::uvec2> constraints;  // the pairs (k, l), k < l, of the last detection
    std::vector<uint32_t> colours;        // theirs (when coloured)
};

class ContactDetection {
public:
    ContactDetection(const VulkanContext& ctx, const ContactModel& model, const GpuBuffer& particles);

    struct Passes {
        uint32_t grid = 0, pairs = 0, colouring = 0;
    };
    // The grid, then the lists and constraints, on the working positions
    // `p`, and, when `colour`, their colours, as runs of `passes`; `stats`
    // gets the substep's entries and colours.
    void record(StepRecorder& rec, const Passes& passes, const GpuBuffer& p, const GpuBuffer& stats, bool colour) const;

    // The grid (contact_grid.glsl) the last detection built: each bucket's
    // first slot and count, and the contact particles in bucket order.
    const GpuBuffer& bucketStart() const { return bucketCounts_; }
    const GpuBuffer& bucketCount() const { return bucketFill_; }
    const GpuBuffer& sorted() const { return sorted_; }
    const GpuBuffer& counts() const { return counts_; }
    const GpuBuffer& offsets() const { return offsets_; }
    const GpuBuffer& neighbours() const { return neighbours_; }
    // [0]: list entries, [1]: (the grid's), [2]: constraints, of the last detection.
    const GpuBuffer& totals() const { return totals_; }
    const GpuBuffer& constraints() const { return constraints_; }
    const GpuBuffer& constraintOf() const { return constraintOf_; }
    const GpuBuffer& colours() const { return colours_; }
    // The colours' indirect dispatches (gpu::ContactDispatch), their counts
    // and offsets (gpu::ContactColourTable) and their lists of constraints.
    const GpuBuffer& dispatches() const { return dispatches_; }
    const GpuBuffer& colourTable() const { return colourTable_; }
    const GpuBuffer& colourLists() const { return colourLists_; }
    // Waits for the queue.
    ContactLists read() const;

private:
    gpu::ContactPush push(uint32_t write) const;

    const ContactModel& model_;
    const GpuBuffer& particles_;
    GpuBuffer groups_, localIndices_;  // ContactModel's, uploaded once
    GpuBuffer bucketOf_, bucketCounts_, bucketFill_, unordered_, sorted_;
    GpuBuffer counts_, offsets_, neighbours_, totals_;
    GpuBuffer constraintCounts_, constraintOffsets_, constraints_, constraintOf_, colours_, rounds_;
    GpuBuffer dispatches_, colourTable_, colourLists_;
    PrefixScan bucketScan_, pairScan_, constraintScan_;
    ComputeKernel clear_, count_, fill_, order_, pairs_, stats_, incidence_, dispatchAll_, colourRound_, colourStats_,
        listColours_, colourScatter_;
};

}  // namespace vksim
