#pragma once
// The Jacobi iterations of a PD global step as one dispatch per iteration,
// each workgroup reading its rows' neighbours from a window of the iterate
// copied into shared memory (pd/jacobi_tiled.comp). "auto" never takes it:
// kept to compare with (the bench's cloth-pd-tiled) and tested bit for bit
// against the per-iteration path.
#include <memory>
#include <string_view>

#include "solvers/pd/pd_jacobi_dispatch_path.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;

class PdJacobiTiled final : public PdJacobiDispatchPath {
public:
    static constexpr std::string_view kPassName = "pd: jacobi/chebyshev, tiled";
    // Rows per workgroup.
    static constexpr uint32_t kRows = 1024;

    PdJacobiTiled(const VulkanContext& ctx, const PdJacobiBuffers& buffers);

    // The particles copied into shared memory on each side of a workgroup's
    // rows: the system's bandwidth, capped by the device's shared memory.
    uint32_t halo() const { return halo_; }

    std::string_view name() const override { return "tiled"; }
    std::string_view describe() const override {
        return "one dispatch per Jacobi iteration, each workgroup's neighbours from a tile in shared memory";
    }
    void declarePasses(StepPlan& plan) override;
    // Builds its kernel the first time.
    void record(StepRecorder& rec, const PdJacobiStep& step) override;

private:
    const VulkanContext& ctx_;
    const PdJacobiBuffers& buffers_;
    std::unique_ptr<ComputeKernel> kernel_;
    uint32_t halo_ = 0;
    uint32_t pass_ = 0;
};

}  // namespace vksim
