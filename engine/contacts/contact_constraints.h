#pragma once
// The contact-constraint set (docs/physics.md §14): the particle pairs
// (contact_detection.h) and the vertex-triangle and edge-edge constraints
// (triangle_detection.h, edge_detection.h) as one set of constraints of two
// or four particles, numbered pairs first, then vertex-triangle, then
// edge-edge (shaders/contacts/contact_constraint.glsl).
// Once per substep, after both detections:
// - one incidence list per contact particle over every constraint, the
//   entries 4 c + role: its pairs in its neighbour list's order, then its
//   four-particle constraints ascending (a counting sort: count, scan,
//   fill, sort each particle's entries);
// - one colouring over all of them (one set of rounds of proposals), a
//   constraint conflicting with every one that shares any of its particles;
// - one list and one indirect dispatch per colour, which the response
//   (contact_response.h) sweeps, a constraint's kind chosen by its number;
// - the list of the particles of the constraints the colouring left out
//   (flags, scanned, listed ascending) and its indirect dispatch, which the
//   response's Jacobi average over those constraints runs over.
// Every list and colour it writes is the same whatever order the GPU runs in.
#include <cstdint>
#include <vector>

#include "contacts/contact_detection.h"
#include "contacts/contact_model.h"
#include "step/prefix_scan.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class TriangleDetection;
class VulkanContext;

// The set as read back (tests).
struct ContactSetLists {
    uint32_t pairs = 0;             // constraints [0, pairs) are pairs, the rest four-particle constraints
    std::vector<uint32_t> colours;  // per constraint of the set (when coloured)
    std::vector<uint32_t> incidenceStart, incidenceCount, incidence;  // per contact particle: 4 c + role
    std::vector<uint32_t> leftoverParticles;  // the particles of the constraints without a colour (when coloured)
};

class ContactConstraints {
public:
    ContactConstraints(const VulkanContext& ctx, const ContactModel& model);

    struct Passes {
        uint32_t incidence = 0, colouring = 0;
    };
    // The incidence lists of what `pairs` and `triangles` (null without
    // triangles) detected last, and, when `colour`, the colours, as runs of
    // `passes`; `stats` gets the colours used and the constraints left out.
    void record(StepRecorder& rec, const Passes& passes, const ContactDetection& pairs,
                const TriangleDetection* triangles, const GpuBuffer& stats, bool colour) const;

    // Per constraint of the set: its colour, and the colour it proposed
    // last while it has none (the detections write kNoColour in both).
    const GpuBuffer& colours() const { return colours_; }
    const GpuBuffer& proposals() const { return proposals_; }
    // Per constraint of the set, its colouring priority (the detections
    // write it), and what it hashes: ContactModel's local indices.
    const GpuBuffer& priorities() const { return priorities_; }
    const GpuBuffer& localIndices() const { return localIndices_; }
    const GpuBuffer& triangleLocalIndices() const { return triangleLocalIndices_; }
    const GpuBuffer& incidenceStart() const { return incidenceStart_; }
    const GpuBuffer& incidenceCount() const { return incidenceCount_; }
    const GpuBuffer& incidence() const { return incidence_; }
    // The dispatches over the set and each colour (gpu::ContactDispatch),
    // the colours' counts and offsets (gpu::ContactColourTable) and their
    // lists of constraints.
    const GpuBuffer& dispatches() const { return dispatches_; }
    const GpuBuffer& colourTable() const { return colourTable_; }
    const GpuBuffer& colourLists() const { return colourLists_; }
    // The contact particles of the constraints without a colour, ascending
    // (their count: the table's leftoverParticles; their dispatch:
    // gpu::kLeftoverParticlesDispatch).
    const GpuBuffer& leftoverParticles() const { return leftoverParticles_; }
    // What the passes over the set bind for the four-particle constraints:
    // `triangles`' list, or a stand-in without triangles.
    const GpuBuffer& triangleContacts(const TriangleDetection* triangles) const;
    // Waits for the queue.
    ContactSetLists read(const ContactDetection& pairs, const TriangleDetection* triangles) const;

private:
    const ContactModel& model_;
    GpuBuffer localIndices_, triangleLocalIndices_;  // ContactModel's, uploaded once
    GpuBuffer colours_, proposals_, priorities_, triangleStart_, incidenceStart_, incidenceCount_, incidence_;
    // Per contact particle, a colouring round's: the colours its
    // constraints took, and per colour its strongest proposal
    // (contact_colour_slots.comp).
    GpuBuffer usedColours_, colourSlots_;
    GpuBuffer unordered_;  // the four-particle entries in the slots the fill took (contact_incidence_order.comp)
    GpuBuffer dispatches_, colourTable_, colourLists_, noTriangles_;
    // Per contact particle, 1 where a constraint of its is left out, then
    // scanned into its slot; and the list those slots make.
    GpuBuffer leftoverOffsets_, leftoverParticles_;
    PrefixScan triangleScan_, leftoverScan_;
    ComputeKernel dispatchAll_, clear_, triangleCount_, incidenceKernel_, triangleFill_, order_, colourSlotsKernel_,
        colourRound_, colourStats_, listColours_, colourScatter_, leftoverFlags_, listLeftovers_;
};

}  // namespace vksim
