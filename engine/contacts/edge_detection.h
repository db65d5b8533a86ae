#pragma once
// Edge-edge contact detection on the GPU, once per substep, as part of the
// four-particle constraints' detection (triangle_detection.h, which owns
// their list and the grid they search, and runs this between its own
// passes; docs/physics.md, "Contacts between objects"): each edge of an
// object with "triangles" searches the surface grid, whose cells the
// longest edge sizes, over its box grown by the detection distance and half
// the longest edge's length, and tests the edges of the particles it finds
// (edge_pairs.comp). Its counts follow the triangles' in
// the list's counts and offsets, scanned together, so its constraints are
// written after every vertex-triangle constraint, in a fixed order: the
// same whatever order the GPU runs in.
#include <cstdint>

#include "contacts/contact_detection.h"
#include "contacts/contact_model.h"
#include "contacts/particle_grid.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class ContactConstraints;
class VulkanContext;

// The list the edge-edge constraints go into, with the vertex-triangle ones
// (TriangleDetection's buffers): per triangle, then per edge, its count and
// offset; the constraints; the partners each search keeps for its writing
// run (gpu::kKeptPartners each). And what both searches read: the surface grid
// and its scale (surface_cell.comp: the cell edge, the longest edge); the
// pairs' grid instead where the cell edge is the pairs' (surface_grid.glsl).
struct FourParticleList {
    const GpuBuffer& counts;
    const GpuBuffer& offsets;
    const GpuBuffer& contacts;
    const GpuBuffer& kept;
    const ParticleGrid& grid;
    const GpuBuffer& scale;
};

class EdgeDetection {
public:
    // `model` has triangles (and so edges); `set` is the constraint set the
    // constraints are written into, uncoloured.
    EdgeDetection(const VulkanContext& ctx, const ContactModel& model, const GpuBuffer& particles,
                  const ContactDetection& pairs, const ContactConstraints& set);

    // With `push.write` 0: each edge's constraints at the working
    // positions `p` counted into the list's counts and offsets after the
    // triangles'; with `push.write` 1, after the scan of both: the
    // constraints written. Runs of `pass`; `stats` counts the edges too
    // large to search (only where positions are not finite).
    void record(StepRecorder& rec, uint32_t pass, const GpuBuffer& p, const FourParticleList& list,
                const GpuBuffer& stats, const gpu::ContactPush& push) const;

    const GpuBuffer& edges() const { return edges_; }

private:
    const ContactModel& model_;
    const GpuBuffer& particles_;
    const ContactDetection& pairs_;
    const ContactConstraints& set_;
    GpuBuffer edges_, particleEdgeStart_, particleEdges_, edgeLocalIndices_;
    ComputeKernel find_;
};

}  // namespace vksim
