#pragma once
// The colour steps of one PBD iteration (solvers/pbd/colour_steps.h), one
// dispatch each: the per-colour path's whole iteration, and the cluster
// path's coloured sweep of what its clusters leave. Each step is one thread
// per constraint (per entry of the largest family's share where a colour
// holds several families), an overflow step one thread walking it in order
// (shaders/pbd/project_range.glsl, project_colour.comp).
#include <cstdint>
#include <memory>
#include <vector>

#include "solvers/pbd/colour_steps.h"
#include "step/step_recorder.h"
#include "vk/compute_kernel.h"

namespace vksim {

class ParticleStore;
class PbdConstraints;
class VulkanContext;

class ColourSweep {
public:
    ColourSweep(const VulkanContext& ctx, const ParticleStore& particles, const PbdConstraints& constraints);
    ~ColourSweep();

    // One pass per colour step: "<family> colour c" and "<family> overflow"
    // per family, or "shared colour c" and "shared overflow" where the
    // colours are shared (the bench's family "shared", bench/pass_traffic.h).
    void declarePasses(StepPlan& plan);
    // Every step over `groups` (the model's, or what the cluster sweeps
    // leave of them) in iteration `iteration` of `iterations`; none where a
    // step has nothing there (only the coloured sweep leaves steps empty).
    void record(StepRecorder& rec, const FamilyGroups& groups, uint32_t iteration, uint32_t iterations, float h,
                StepPosition at) const;

private:
    const ParticleStore& particles_;
    const PbdConstraints& constraints_;
    std::vector<uint32_t> passes_;  // one per step, as PbdConstraints::steps()
    // Per family, each family's own kernel; across families
    // (PbdColouring::AcrossFamilies), one kernel for a colour of all of them.
    std::unique_ptr<ComputeKernel> projectFamily_[kPbdFamilies];
    std::unique_ptr<ComputeKernel> projectColour_;
};

}  // namespace vksim
