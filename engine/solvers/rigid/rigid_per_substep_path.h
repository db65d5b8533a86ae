#pragma once
// A frame of the rigid bodies per substep: `iterations` times "rigid:
// collider contacts" (one workgroup per body; the first also updates the
// velocities), each followed by "rigid: body pairs" once per round of pairs
// (rigid_model.h), then "rigid: positions". What "auto" takes above a few
// bodies: the bodies, and the pairs of a round, run side by side.
#include <memory>
#include <string_view>

#include "solvers/rigid/rigid_dispatch_path.h"

namespace vksim {

class VulkanContext;

class RigidPerSubstepPath final : public RigidDispatchPath {
public:
    static constexpr const char* kContactsPassName = "rigid: collider contacts";
    static constexpr const char* kPairsPassName = "rigid: body pairs";
    static constexpr const char* kPositionsPassName = "rigid: positions";

    // Builds its pair kernel only when there are bodies.
    RigidPerSubstepPath(const VulkanContext& ctx, const RigidPathInputs& inputs);

    std::string_view name() const override { return "perSubstep"; }
    std::string_view describe() const override {
        return "per substep and iteration: every body's contacts side by side, then each round of pairs";
    }
    void declarePasses(StepPlan& plan) override;
    void record(StepRecorder& rec, const SolverSettings& settings, gpu::RigidPush push, SubstepSpan substeps) override;

private:
    const RigidPathInputs& inputs_;
    std::unique_ptr<ComputeKernel> pairKernel_;
    uint32_t contactsPass_ = 0, pairsPass_ = 0, positionsPass_ = 0;
};

}  // namespace vksim
