#pragma once
// The Jacobi iterations of a PD global step in one dispatch of one
// workgroup (pd/jacobi_in_workgroup_*.comp, docs/physics.md §5, "The global
// step in one dispatch"): all J iterations, with a workgroup barrier between
// them, reading each copy's Chebyshev weights from a buffer. What "auto"
// takes for small systems.
#include <memory>
#include <string_view>
#include <vector>

#include "solvers/pd/pd_jacobi_dispatch_path.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;

class PdJacobiInWorkgroup final : public PdJacobiDispatchPath {
public:
    static constexpr std::string_view kPassName = "pd: jacobi in one workgroup";
    // The most Jacobi iterations it holds weights for: the scene format's
    // limit (the loader's kMaxSolverLoops).
    static constexpr uint32_t kMaxOmegas = 1000;

    // Builds its kernel only when the constraints have rows.
    PdJacobiInWorkgroup(const VulkanContext& ctx, const PdJacobiBuffers& buffers);

    std::string_view name() const override { return "workgroup"; }
    std::string_view describe() const override {
        return "every Jacobi iteration of a global step in one dispatch of one workgroup";
    }
    void declarePasses(StepPlan& plan) override;
    std::optional<std::string> misfit(const SolverSettings& settings) const override;
    void record(StepRecorder& rec, const PdJacobiStep& step) override;

private:
    const PdJacobiBuffers& buffers_;
    std::unique_ptr<ComputeKernel> kernel_;
    uint32_t pass_ = 0;
};

}  // namespace vksim
