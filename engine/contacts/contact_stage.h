#pragma once
// Contacts between objects (docs/physics.md, "Contacts between objects"):
// the particles of every object with a "contacts" block touch each other,
// and, with "self", their own object's. The stepper owns one and detects
// them once per substep after every solver's prediction (recordDetect); PBD
// projects the pairs of its particles in each iteration of its solve
// (recordProject), and the stepper every other pair after every solver's
// solve (recordProjectAfterSolve).
// Where some object has "triangles", the vertex-triangle and edge-edge
// constraints are detected after the pairs (triangle_detection.h,
// edge_detection.h); every kind is in one constraint set
// (contact_constraints.h), listed, coloured and projected together
// (contact_response.h).
// Its passes: "contacts: grid" (the broad phase), "contacts: pairs" (the
// neighbour lists and constraints, and the set's incidence lists),
// "contacts: triangles" (the vertex-triangle and edge-edge constraints,
// with triangles),
// "contacts: colouring" (the set), "contacts: solve" (in a solver's
// iterations) and "contacts: after solve".
#include <cstdint>
#include <memory>
#include <string_view>

#include "contacts/contact_constraints.h"
#include "contacts/contact_detection.h"
#include "contacts/contact_model.h"
#include "contacts/contact_response.h"
#include "contacts/triangle_detection.h"
#include "step/step_plan.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;

class ContactStage {
public:
    // `inIterations`: the particles whose solver projects contacts inside its
    // iterations (buildContactModel). `adjacencyRows`: the particle store's
    // vertex-triangle rows, which the spare particles of cloths that split
    // torn vertices follow at each frame's start (followSplits); needed
    // only where some object has spare particles.
    ContactStage(const VulkanContext& ctx, const SharedModel& model, ParticleRange inIterations,
                 const GpuBuffer* adjacencyRows = nullptr);
    ~ContactStage();

    const ContactModel& model() const { return model_; }
    bool empty() const { return model_.empty(); }

    // `afterSolve`: whether the stepper may project pairs after the solves
    // (ContactModel::afterSolve, or a solver whose iterations do not
    // project its pairs), which declares "contacts: after solve".
    void declarePasses(StepPlan& plan, bool afterSolve);

    // Once per frame, before its first substep: the spare particles'
    // records follow the splits (in "contacts: grid"). The splits happen
    // once a frame, after its last substep (PbdTearing::recordFrameEnd), so
    // every detection of the frame sees the same records; and the rows are
    // saved state, so a reset or a loaded state is followed at the next
    // frame's start.
    void recordFrameStart(StepRecorder& rec) const;
    // Once per substep, after the prediction: the lists of pairs on the
    // working positions `p`.
    // The colouring runs when `solve` projects by colours.
    void recordDetect(StepRecorder& rec, const GpuBuffer& p, ContactSolve solve) const;
    // Once per iteration of a solver that projects contacts in its
    // iterations: the pairs of its particles with each other, projected on
    // `p`; `x` holds the positions at the start of the substep.
    void recordProject(StepRecorder& rec, ContactSolve solve, const GpuBuffer& x, const GpuBuffer& p, StepPosition at,
                       std::string_view workingName) const;
    // After every solver's solve, when some pair is not its iterations'
    // (ContactModel::afterSolve, or a solver's that does not project them
    // in its iterations: PBD's workgroup path): every pair, `iterations` times, on the
    // solved positions `p`. The pairs solved in iterations are projected
    // again, so that a push after the solve leaves no particle inside
    // another (they are already apart, and stay so).
    void recordProjectAfterSolve(StepRecorder& rec, ContactSolve solve, uint32_t iterations, const GpuBuffer& x,
                                 const GpuBuffer& p, uint32_t substep, std::string_view workingName) const;

    // What the detection found since the last reset (waits for the queue;
    // contact_stats_readback.h reads it frame by frame without waiting).
    gpu::ContactStats readStats() const;
    // The buffer of those stats (one gpu::ContactStats).
    const GpuBuffer& stats() const { return stats_; }
    // The contact particles (gpu::ContactParticle) and the detection's
    // buffers, which the viewer draws the contacts from (not empty()).
    const GpuBuffer& particles() const { return particles_; }
    // Per particle of the store, its contact particle (ContactModel::contactOf).
    const GpuBuffer& contactOf() const { return contactOf_; }
    const ContactDetection& detection() const { return *detection_; }
    // The vertex-triangle detection: null without triangles.
    const TriangleDetection* triangleDetection() const { return triangleDetection_.get(); }
    // The constraint set of both kinds: incidence lists and colours.
    const ContactConstraints& constraints() const { return *constraints_; }
    // The lists of the last detection (waits for the queue).
    ContactLists readLists() const { return detection_->read(); }
    ContactSetLists readSet() const { return constraints_->read(*detection_, triangleDetection_.get()); }
    // Zeroes the stats (waits for the queue).
    void reset();
    // What reset() restores, for World::saveState(): the stats.
    void addStateBuffers(std::vector<GpuBuffer*>& out) { out.push_back(&stats_); }

private:
    ContactModel model_;
    GpuBuffer particles_, contactOf_, stats_;
    std::unique_ptr<ContactConstraints> constraints_;
    std::unique_ptr<ContactDetection> detection_;
    std::unique_ptr<TriangleDetection> triangleDetection_;
    std::unique_ptr<ContactResponse> response_;
    const GpuBuffer* adjacencyRows_ = nullptr;
    std::unique_ptr<ComputeKernel> followSplits_;  // contacts/contact_follow_splits.comp, with spare particles
    ContactDetection::Passes detectPasses_;
    ContactConstraints::Passes setPasses_;
    uint32_t trianglePass_ = 0, solvePass_ = 0, afterSolvePass_ = 0;
    bool declared_ = false, afterSolveDeclared_ = false;
};

}  // namespace vksim
