#pragma once
// The contact-constraint set (contact_constraints.h: the particle pairs and
// the vertex-triangle constraints) in one solver iteration
// (docs/physics.md §14), projected one of two ways
// (SolverSettings::contactSolve):
// - Gauss-Seidel over the colours of the set, one dispatch a colour, each
//   constraint moving its two or four particles; then the Jacobi average
//   over what the colouring left out;
// - the Jacobi average over every constraint: each particle counts the
//   constraints of its incidence list that push, sums its share of them in
//   list order, and adds the sum to its working position.
// No two threads write one value and there are no atomics, so the result
// is deterministic.
#include "contacts/contact_constraints.h"
#include "contacts/contact_detection.h"
#include "scene/contact_params.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class TriangleDetection;

class ContactResponse {
public:
    // `triangles`: null without triangles.
    ContactResponse(const VulkanContext& ctx, const ContactModel& model, const GpuBuffer& particles,
                    const ContactDetection& detection, const TriangleDetection* triangles,
                    const ContactConstraints& set);

    // One iteration over the constraints of `pairs` (gpu::kContactPairs*) on
    // the working positions `p`, with `x` the positions at the start of the
    // substep (for friction), as runs of `pass`.
    void record(StepRecorder& rec, uint32_t pass, ContactSolve solve, uint32_t pairs, const GpuBuffer& x,
                const GpuBuffer& p, StepPosition at, std::string_view workingName) const;

private:
    const ContactModel& model_;
    const GpuBuffer& particles_;
    const ContactDetection& detection_;
    const TriangleDetection* triangles_;
    const ContactConstraints& set_;
    GpuBuffer active_, corrections_;
    ComputeKernel countActive_, project_, apply_, projectColour_;
};

}  // namespace vksim
