#pragma once
// Edge-edge contact detection on the GPU, once per substep, as part of the
// four-particle constraints' detection (triangle_detection.h, which owns
// their list and runs this between its own passes; docs/physics.md,
// "Contacts between objects"): the longest surface edge now
// (edge_longest.comp), then each edge of an object with "triangles"
// searches the particle grid (contact_detection.h) over its box grown by
// the detection distance and half that length, and tests the edges of the
// particles it finds (edge_pairs.comp). Its counts follow the triangles' in
// the list's counts and offsets, scanned together, so its constraints are
// written after every vertex-triangle constraint, in a fixed order: the
// same whatever order the GPU runs in.
#include <cstdint>

#include "contacts/contact_detection.h"
#include "contacts/contact_model.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class ContactConstraints;
class VulkanContext;

// The list the edge-edge constraints go into, with the vertex-triangle ones
// (TriangleDetection's buffers): per triangle, then per edge, its count and
// offset; the constraints.
struct FourParticleList {
    const GpuBuffer& counts;
    const GpuBuffer& offsets;
    const GpuBuffer& contacts;
};

class EdgeDetection {
public:
    // `model` has triangles (and so edges); `set` is the constraint set the
    // constraints are written into, uncoloured.
    EdgeDetection(const VulkanContext& ctx, const ContactModel& model, const GpuBuffer& particles,
                  const ContactDetection& pairs, const ContactConstraints& set);

    // With `push.write` 0: the longest edge at the working positions `p`,
    // then each edge's constraints counted into the list's counts and
    // offsets after the triangles'; with `push.write` 1, after the scan of
    // both: the constraints written. Runs of `pass`; `stats` counts the
    // edges too large to search.
    void record(StepRecorder& rec, uint32_t pass, const GpuBuffer& p, const FourParticleList& list,
                const GpuBuffer& stats, const gpu::ContactPush& push) const;

    const GpuBuffer& edges() const { return edges_; }

private:
    const ContactModel& model_;
    const GpuBuffer& particles_;
    const ContactDetection& pairs_;
    const ContactConstraints& set_;
    GpuBuffer edges_, particleEdgeStart_, particleEdges_, edgeLocalIndices_, longest_;
    ComputeKernel longestKernel_, find_;
};

}  // namespace vksim
