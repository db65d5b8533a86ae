#pragma once
// Vertex-triangle contact detection on the GPU, once per substep, after the
// particle pairs' (docs/physics.md, "Contacts between objects"): each
// triangle of an object with "triangles" searches the particle grid
// (contact_detection.h) over its grown box for the contact particles within
// t_k + t_tri + margin; its constraints are counted, scanned into offsets
// and written in a fixed order with the weights of the closest point, after
// the pairs in the contact-constraint set (contact_constraints.h, which
// lists and colours both kinds together). Every list it writes is the same
// whatever order the GPU runs in.
#include <cstdint>
#include <vector>

#include "contacts/contact_detection.h"
#include "contacts/contact_model.h"
#include "step/prefix_scan.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;

// The vertex-triangle constraints as read back (tests).
struct TriangleContactLists {
    std::vector<gpu::TriangleContact> contacts;  // of the last detection, in the GPU's order
    std::vector<uint32_t> counts;                // per triangle: its constraints found (may pass what fit)
};

class TriangleDetection {
public:
    // `model` has triangles (ContactModel::hasTriangles); `set` is the
    // constraint set they are written into, uncoloured, after `pairs`'.
    TriangleDetection(const VulkanContext& ctx, const ContactModel& model, const GpuBuffer& particles,
                      const ContactDetection& pairs, const ContactConstraints& set);

    // The constraints on the working positions `p`, after the pairs'
    // detection built the grid, as runs of `pass`; `stats` gets the
    // substep's count.
    void record(StepRecorder& rec, uint32_t pass, const GpuBuffer& p, const GpuBuffer& stats) const;

    const GpuBuffer& triangles() const { return triangles_; }
    const GpuBuffer& contacts() const { return contacts_; }
    // Waits for the queue.
    TriangleContactLists read() const;

private:
    const ContactModel& model_;
    const GpuBuffer& particles_;
    const ContactDetection& pairs_;
    const ContactConstraints& set_;
    GpuBuffer triangles_, counts_, offsets_, contacts_;
    PrefixScan constraintScan_;
    ComputeKernel find_, stats_;
};

}  // namespace vksim
