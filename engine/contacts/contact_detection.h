#pragma once
// Contact detection on the GPU, once per substep (docs/physics.md,
// "Contacts between objects"): a hash grid over the contact particles built
// as a stable counting sort (particle_grid.h), then each particle's
// neighbours within t_a + t_b + margin, counted, scanned into offsets and
// written in a fixed order (from the neighbours the count kept, searching
// again only where it found more than gpu::kKeptNeighbours); each pair
// also becomes one constraint, owned by its lower particle, the first of
// the contact-constraint set (contact_constraints.h, which lists and
// colours them). Every list it writes is the same whatever order the GPU
// runs in.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "contacts/contact_model.h"
#include "contacts/particle_grid.h"
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
    std::vector<uint32_t> colours;        // theirs (when coloured): the set's first
};

class ContactConstraints;

class ContactDetection {
public:
    // `set`: the constraint set the pairs are written into, uncoloured.
    ContactDetection(const VulkanContext& ctx, const ContactModel& model, const GpuBuffer& particles,
                     const ContactConstraints& set);

    struct Passes {
        uint32_t grid = 0, pairs = 0;
    };
    // The grid, then the lists and constraints, on the working positions
    // `p`, as runs of `passes`; `stats` gets the substep's entries.
    void record(StepRecorder& rec, const Passes& passes, const GpuBuffer& p, const GpuBuffer& stats) const;

    // The grid (contact_grid.glsl) the last detection built, of cells of
    // ContactModel::cellSize.
    const ParticleGrid& grid() const { return grid_; }
    // ContactModel::groups, which the triangles' and edges' grid hashes by too.
    const GpuBuffer& groups() const { return groups_; }
    const GpuBuffer& counts() const { return counts_; }
    const GpuBuffer& offsets() const { return offsets_; }
    const GpuBuffer& neighbours() const { return neighbours_; }
    // The totals of the last detection, of every contact pass: [0] list
    // entries, [1] (the grid's), [2] pair constraints, [3] vertex-triangle
    // constraints (triangle_detection.h), [4] (their incidence entries'),
    // [5] (the triangles' and edges' grid's, of the last substep that built it).
    const GpuBuffer& totals() const { return totals_; }
    const GpuBuffer& constraints() const { return constraints_; }
    const GpuBuffer& constraintCounts() const { return constraintCounts_; }
    const GpuBuffer& constraintOffsets() const { return constraintOffsets_; }
    // Waits for the queue.
    ContactLists read() const;

private:
    const ContactModel& model_;
    const GpuBuffer& particles_;
    const ContactConstraints& set_;
    GpuBuffer groups_;    // ContactModel's, uploaded once
    GpuBuffer cellSize_;  // ContactModel::cellSize, uploaded once, for the grid
    ParticleGrid grid_;
    GpuBuffer counts_, offsets_, neighbours_, totals_;
    GpuBuffer constraintCounts_, constraintOffsets_, constraints_;
    // The counting run's first gpu::kKeptNeighbours neighbours of each
    // particle, which the writing run reads instead of searching.
    GpuBuffer kept_;
    PrefixScan pairScan_, constraintScan_;
    ComputeKernel pairs_, stats_;
};

}  // namespace vksim
