#pragma once
// Contacts between objects (docs/physics.md, "Contacts between objects"):
// the particles of every object with a "contacts" block touch each other,
// and, with "self", their own object's. The stepper owns one; a solver whose
// objects have contacts detects them once per substep (recordDetect) and
// projects them in each iteration of its solve (recordProject).
// Its passes: "contacts: grid" (the broad phase), "contacts: pairs" (the
// neighbour lists and constraints), "contacts: colouring" and "contacts: solve".
#include <cstdint>
#include <memory>
#include <string_view>

#include "contacts/contact_detection.h"
#include "contacts/contact_model.h"
#include "contacts/contact_response.h"
#include "step/step_plan.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"

namespace vksim {

class VulkanContext;

class ContactStage {
public:
    ContactStage(const VulkanContext& ctx, const SharedModel& model);
    ~ContactStage();

    const ContactModel& model() const { return model_; }
    bool empty() const { return model_.empty(); }

    void declarePasses(StepPlan& plan);

    // Once per substep, after the prediction: the lists of pairs on the
    // working positions `p`.
    // The colouring runs when `solve` projects by colours.
    void recordDetect(StepRecorder& rec, const GpuBuffer& p, ContactSolve solve) const;
    // Once per solver iteration: the contacts projected on `p`; `x` holds
    // the positions at the start of the substep.
    void recordProject(StepRecorder& rec, ContactSolve solve, const GpuBuffer& x, const GpuBuffer& p, StepPosition at,
                       std::string_view workingName) const;

    // What the detection found since the last reset (waits for the queue;
    // contact_stats_readback.h reads it frame by frame without waiting).
    gpu::ContactStats readStats() const;
    // The buffer of those stats (one gpu::ContactStats).
    const GpuBuffer& stats() const { return stats_; }
    // The contact particles (gpu::ContactParticle) and the detection's
    // buffers, which the viewer draws the contacts from (not empty()).
    const GpuBuffer& particles() const { return particles_; }
    const ContactDetection& detection() const { return *detection_; }
    // The lists of the last detection (waits for the queue).
    ContactLists readLists() const { return detection_->read(); }
    // Zeroes the stats (waits for the queue).
    void reset();

private:
    ContactModel model_;
    GpuBuffer particles_, stats_;
    std::unique_ptr<ContactDetection> detection_;
    std::unique_ptr<ContactResponse> response_;
    ContactDetection::Passes detectPasses_;
    uint32_t solvePass_ = 0;
    bool declared_ = false;
};

}  // namespace vksim
