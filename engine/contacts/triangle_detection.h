#pragma once
// The four-particle contact constraints' detection on the GPU, once per
// substep, after the particle pairs' (docs/physics.md, "Contacts between
// objects"): first the surface grid, a second grid of the contact particles
// (particle_grid.h) whose cells the longest surface edge sizes
// (surface_cell.comp), so that a search box spans a few cells whatever the
// edges' length against the thickness, built only where those cells are
// not the pairs' (else the searches read the pairs' grid, which is then the
// same bit for bit; the GPU decides, surface_grid.glsl); then
// vertex-triangle, each triangle
// of an object with "triangles" searching it over its grown box for the
// contact particles within t_k + t_tri + margin; and edge-edge
// (edge_detection.h). Both kinds' constraints are counted, scanned together
// into offsets (the triangles', then the edges') and written into one list
// (from the partners the count kept, searching again only where it found
// more than gpu::kKeptPartners) in a fixed order with the weights of the
// closest points, after the pairs
// in the contact-constraint set (contact_constraints.h, which lists and
// colours every kind together). Every list it writes is the same whatever
// order the GPU runs in.
#include <cstdint>
#include <vector>

#include "contacts/contact_detection.h"
#include "contacts/contact_model.h"
#include "contacts/edge_detection.h"
#include "contacts/particle_grid.h"
#include "step/prefix_scan.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;

// The four-particle constraints as read back (tests).
struct TriangleContactLists {
    std::vector<gpu::TriangleContact> contacts;  // vertex-triangle, of the last detection, in the GPU's order
    std::vector<uint32_t> counts;                // per triangle: its constraints found (may pass what fit)
    std::vector<gpu::TriangleContact> edgeContacts;  // edge-edge, after them in the list
    std::vector<uint32_t> edgeCounts;                // per edge: its constraints found (may pass what fit)
    float surfaceCell = 0.0f;      // [m] the surface grid's cell edge (surface_cell.comp)
    uint32_t surfaceGroups = 0;    // workgroups its build started, every dispatch's (0: the pairs' grid was read)
    bool surfaceIndirect = true;   // its build dispatched from the GPU's counts (else directly: past the limit)
};

class TriangleDetection {
public:
    // `model` has triangles (ContactModel::hasTriangles); `set` is the
    // constraint set they are written into, uncoloured, after `pairs`'.
    TriangleDetection(const VulkanContext& ctx, const ContactModel& model, const GpuBuffer& particles,
                      const ContactDetection& pairs, const ContactConstraints& set);

    // The constraints on the working positions `p`, after the pairs'
    // detection built the grid, as runs of `pass`; `stats` gets the
    // substep's counts.
    void record(StepRecorder& rec, uint32_t pass, const GpuBuffer& p, const GpuBuffer& stats) const;

    const GpuBuffer& contacts() const { return contacts_; }
    // Waits for the queue.
    TriangleContactLists read() const;

private:
    const ContactModel& model_;
    const GpuBuffer& particles_;
    const ContactDetection& pairs_;
    const ContactConstraints& set_;
    GpuBuffer triangles_, neighbours_, counts_, offsets_, contacts_;  // counts and offsets: per triangle, then per edge
    // The counting run's first gpu::kKeptPartners partners of each triangle,
    // then of each edge, which the writing run reads instead of searching.
    GpuBuffer kept_;
    GpuBuffer scale_;  // surface_cell.comp's: [0] the surface grid's cell edge, [1] the longest edge
    ParticleGrid surfaceGrid_;
    // The surface grid's build's VkDispatchIndirectCommands as run directly
    // (ParticleGrid::groupCounts, uploaded once), and as surface_cell.comp
    // writes them each substep: zero groups where the grid would be the
    // pairs'. The build runs them where they fit indirect dispatches
    // (ParticleGrid::fitsIndirect; else directly, every substep).
    GpuBuffer gridGroups_, gridDispatches_;
    EdgeDetection edges_;
    PrefixScan constraintScan_;
    ComputeKernel scaleKernel_, find_, stats_;
};

}  // namespace vksim
