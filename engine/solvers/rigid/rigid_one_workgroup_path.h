#pragma once
// A frame of the rigid bodies in one workgroup ("rigid: step"): every
// substep, contact iteration, body and pair one after another, as few
// dispatches as a CPU driver's loop limit allows (rigid_frame_items.h; one
// for a small world). What "auto" takes for a few bodies, and always for one.
#include <string_view>

#include "solvers/rigid/rigid_dispatch_path.h"

namespace vksim {

class RigidOneWorkgroupPath final : public RigidDispatchPath {
public:
    static constexpr const char* kStepPassName = "rigid: step";

    explicit RigidOneWorkgroupPath(const RigidPathInputs& inputs) : inputs_(inputs) {}

    std::string_view name() const override { return "oneWorkgroup"; }
    std::string_view describe() const override {
        return "every substep, body and pair of a frame in one workgroup, in as few dispatches as a CPU driver's "
               "loop limit allows";
    }
    void declarePasses(StepPlan& plan) override;
    // More items a substep than its push constants count (2^32).
    std::optional<std::string> misfit(const SolverSettings& settings) const override;
    void record(StepRecorder& rec, const SolverSettings& settings, gpu::RigidPush push, SubstepSpan substeps) override;

private:
    const RigidPathInputs& inputs_;
    uint32_t stepPass_ = 0;
};

}  // namespace vksim
