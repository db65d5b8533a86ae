#pragma once
// The Jacobi iterations of a PD global step as one dispatch per iteration
// (pd/jacobi.comp, one thread per row): the reference the other paths are
// compared with bit for bit, and what "auto" takes for large systems.
#include <memory>
#include <string_view>

#include "solvers/pd/pd_jacobi_dispatch_path.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;

// `step.iterations` dispatches of `kernel` under `pass`, each over `threads`
// threads, rotating the iterates (shared by the per-iteration and tiled paths).
void recordPdJacobiDispatches(StepRecorder& rec, uint32_t pass, const ComputeKernel& kernel, uint32_t threads,
                              const PdJacobiBuffers& buffers, const PdJacobiStep& step);

class PdJacobiPerIteration final : public PdJacobiDispatchPath {
public:
    static constexpr std::string_view kPassName = "pd: jacobi/chebyshev";

    // Builds its kernel only when the constraints have rows.
    PdJacobiPerIteration(const VulkanContext& ctx, const PdJacobiBuffers& buffers);

    std::string_view name() const override { return "perIteration"; }
    std::string_view describe() const override {
        return "one dispatch per Jacobi iteration, a thread per row (the reference path)";
    }
    void declarePasses(StepPlan& plan) override;
    void record(StepRecorder& rec, const PdJacobiStep& step) override;

private:
    const PdJacobiBuffers& buffers_;
    std::unique_ptr<ComputeKernel> kernel_;
    uint32_t pass_ = 0;
};

}  // namespace vksim
