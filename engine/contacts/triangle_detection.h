#pragma once
// Vertex-triangle contact detection on the GPU, once per substep, after the
// particle pairs' (docs/physics.md, "Contacts between objects"): each
// triangle of an object with "triangles" searches the particle grid
// (contact_detection.h) over its grown box for the contact particles within
// t_k + t_tri + margin; its constraints are counted, scanned into offsets
// and written in a fixed order with the weights of the closest point. Each
// constraint then enters the incidence lists of its four particles (a
// counting sort by particle: count, scan, fill, sort each list), which the
// Jones-Plassmann colouring and the Jacobi average read. Every list and
// colour it writes is the same whatever order the GPU runs in.
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
    std::vector<uint32_t> colours;               // per constraint (when coloured)
    std::vector<uint32_t> incidenceStart, incidenceCount, incidence;  // per contact particle: 4 c + role
};

class TriangleDetection {
public:
    // `model` has triangles (ContactModel::hasTriangles).
    TriangleDetection(const VulkanContext& ctx, const ContactModel& model, const GpuBuffer& particles,
                      const ContactDetection& pairs);

    struct Passes {
        uint32_t triangles = 0, colouring = 0;
    };
    // The constraints and incidence lists on the working positions `p`,
    // after the pairs' detection built the grid, and, when `colour`, their
    // colours; `stats` gets the substep's count and colours.
    void record(StepRecorder& rec, const Passes& passes, const GpuBuffer& p, const GpuBuffer& stats,
                bool colour) const;

    // The push constants of the vertex-triangle passes (gpu::kContactKindTriangles).
    gpu::ContactPush push(uint32_t write) const;

    const GpuBuffer& triangles() const { return triangles_; }
    const GpuBuffer& contacts() const { return contacts_; }
    const GpuBuffer& colours() const { return colours_; }
    const GpuBuffer& incidenceStart() const { return incidenceStart_; }
    const GpuBuffer& incidenceCount() const { return incidenceFill_; }
    const GpuBuffer& incidence() const { return incidence_; }
    const GpuBuffer& dispatches() const { return dispatches_; }
    const GpuBuffer& colourTable() const { return colourTable_; }
    const GpuBuffer& colourLists() const { return colourLists_; }
    // Waits for the queue.
    TriangleContactLists read() const;

private:
    const ContactModel& model_;
    const GpuBuffer& particles_;
    const ContactDetection& pairs_;
    GpuBuffer triangles_, counts_, offsets_, totals_, contacts_, colours_, rounds_;
    GpuBuffer incidenceStart_, incidenceFill_, incidence_;
    GpuBuffer dispatches_, colourTable_, colourLists_;
    PrefixScan constraintScan_, incidenceScan_;
    ComputeKernel find_, stats_, dispatchAll_, clear_, incidenceCount_, incidenceFillKernel_, incidenceOrder_,
        colourRound_, colourStats_, listColours_, colourScatter_;
};

}  // namespace vksim
