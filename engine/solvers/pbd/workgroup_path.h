#pragma once
// The workgroup path (PbdPath::Workgroup, docs/physics.md §1, "Small
// objects in one workgroup"; the plan in solvers/pbd/workgroup_plan.h):
// when every PBD object's positions fit one workgroup's shared memory, one
// dispatch runs the whole frame, one workgroup per object, the shared
// stages' math included. It computes the per-colour path's bits.
// Where some object has contacts, it solves one substep at a time between
// the stepper's stages instead (recordSolve), so that the one contact
// detection sees its predicted positions every substep; its iterations
// project the contacts within each object (shaders/pbd/workgroup_contacts.glsl),
// and leave those between objects to the stepper's projection after the solve.
#include <cstdint>
#include <string_view>

#include "shaders/pbd/pbd_types.h"
#include "solvers/pbd/pbd_dispatch_path.h"
#include "solvers/pbd/pbd_model.h"
#include "vk/buffer.h"

namespace vksim {

class PbdConstraints;
class PbdIterationStages;
class VulkanContext;
class WorkgroupSolve;
struct ClusterPlan;
struct ContactModel;
struct WorkgroupContactBuffers;
struct PbdDeviceShape;

class WorkgroupPath final : public PbdDispatchPath {
public:
    // Its one pass (the bench counts its constraint solves by it).
    static constexpr std::string_view kPassName = "pbd: solve in workgroups";

    // `arrays`: the cluster plan the constraint arrays are in the order of.
    // Builds its plan only where every object fits and there are PBD particles.
    // `contacts`: the stepper's contact model, whose contact particles its
    // lists are laid out by (null without contacts).
    WorkgroupPath(const VulkanContext& ctx, const PbdModelView& model, const ClusterPlan& arrays,
                  const PbdDeviceShape& device, const PbdConstraints& constraints, const WorkgroupSolve& solve,
                  PbdIterationStages& stages, const ContactModel* contacts);

    void declarePasses(StepPlan& plan) override;
    // The first PBD object too big for one workgroup.
    const std::optional<std::string>& misfit() const override { return misfit_; }
    std::string describe() const override;
    // Whole frames, unless some object has contacts (stepsSubsteps()).
    bool recordsWholeFrames() const override;
    void recordFrame(StepRecorder& rec, const FrameInputs& frame, const gpu::ParticlePush& particles) override;
    // With contacts: one substep's iterations, the prediction before them and
    // the velocity update after them the stepper's shared stages.
    const GpuBuffer& recordSolve(StepRecorder& rec, const SubstepContext& sub) override;
    // Only those within an object: the stepper projects every pair after the solve.
    bool projectsContactsInSolve() const override { return false; }

    // Whether it steps substep by substep between the stepper's stages:
    // some PBD object has contacts.
    bool stepsSubsteps() const { return stepsSubsteps_; }

    // The most particles one workgroup holds on this device.
    uint32_t capacity() const { return capacity_; }

private:
    // The push constants of a frame's dispatches: `particles` and the mouse.
    gpu::WorkgroupSolvePush framePush(const FrameInputs& frame, const gpu::ParticlePush& particles) const;
    // `substeps` whole substeps (predicted first, finished last), in as
    // many dispatches as keep each under kMaxBarriersPerDispatch.
    void recordSubsteps(StepRecorder& rec, const gpu::WorkgroupSolvePush& push, uint32_t substeps,
                        uint32_t iterations);
    // One substep's `iterations` in dispatches of at most
    // maxBarriersPerDispatch_ barriers, the first predicting and the last
    // finishing where `stages` has those stages.
    void recordIterationRuns(StepRecorder& rec, const gpu::WorkgroupSolvePush& push, uint32_t iterations,
                             uint32_t stages, StepPosition at, const WorkgroupContactBuffers* contacts = nullptr);
    // `substeps` substeps of the frame in one dispatch, from iteration
    // `firstIteration` of the first to `lastIterationEnd` of the last,
    // with `stages` (gpu::kStagePredictFirst, gpu::kStageFinishLast), and
    // the contacts within the objects where `contacts` is given.
    void recordRun(StepRecorder& rec, gpu::WorkgroupSolvePush push, uint32_t substeps, uint32_t firstIteration,
                   uint32_t lastIterationEnd, uint32_t stages, StepPosition at,
                   const WorkgroupContactBuffers* contacts = nullptr);

    const PbdConstraints& constraints_;
    const WorkgroupSolve& solve_;
    PbdIterationStages& stages_;
    uint32_t capacity_ = 0;
    std::optional<std::string> misfit_;
    bool stepsSubsteps_ = false;
    uint32_t pass_ = 0;
    // One object and its phases per workgroup.
    GpuBuffer plan_;  // objects and phases (makeWorkgroupPlanBuffer)
    uint32_t workgroupCount_ = 0;
    // Each object's contact lists (solvers/pbd/workgroup_contacts.h), where
    // some object has contact particles.
    GpuBuffer contactLists_;
    // The most workgroup barriers one iteration of any object takes: its
    // phases, the mouse's, shape matching's and the contacts' (recordSubsteps).
    uint32_t barriersPerIteration_ = 1;
    // The most barriers one dispatch may pass (recordSubsteps says why):
    // fewer where the solve projects XPBD solids' tetrahedra.
    uint32_t maxBarriersPerDispatch_ = 2048;
};

}  // namespace vksim
