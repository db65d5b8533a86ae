#include "linear/block_jacobi.h"

#include <vector>

#include <fmt/format.h>

#include "shared/linear_types.h"
#include "vk/barriers.h"

namespace vksim::linear {

BlockJacobi::BlockJacobi(const VulkanContext& ctx, const BlockSparseMatrix& A, const std::string& name)
    : rowCount_(A.blockRows()) {
    const std::vector<gpu::LinearBlockRow> rows = A.gpuRows();
    const std::vector<gpu::LinearBlock> blocks = A.gpuBlocks();
    const std::vector<gpu::vec4> zeros(rowCount_, gpu::vec4(0.0f));
    rows_ = makeStorageBuffer<gpu::LinearBlockRow>(ctx, rows, name + " rows");
    blocks_ = makeStorageBuffer<gpu::LinearBlock>(ctx, blocks, name + " blocks");
    rhs_ = makeStorageBuffer<gpu::vec4>(ctx, zeros, name + " rhs");
    for (uint32_t c = 0; c < 3; ++c) x_[c] = makeStorageBuffer<gpu::vec4>(ctx, zeros, fmt::format("{} x{}", name, c));

    kernel_ = std::make_unique<ComputeKernel>(ctx, "linear/block_jacobi.comp", sizeof(gpu::BlockJacobiPush));
}

BlockJacobi::~BlockJacobi() = default;

void BlockJacobi::record(VkCommandBuffer cmd, std::span<const float> omegas, float gamma) const {
    gpu::BlockJacobiPush push{};
    push.rowCount = rowCount_;
    push.gamma = gamma;
    for (size_t k = 0; k < omegas.size(); ++k) {
        push.omega = omegas[k];
        // Iteration k reads x^{k-1} (in x_{(k-1)%3}) and x^k, writes x^{k+1};
        // the first has x^{-1} = x^0. Binding order = the shader's: rows,
        // blocks, rhs, previous, current, next.
        const size_t d = k == 0 ? 0 : (k - 1) % 3;
        const GpuBuffer* current = k == 0 ? &x_[0] : &x_[(d + 1) % 3];
        const GpuBuffer* next = k == 0 ? &x_[1] : &x_[(d + 2) % 3];
        kernel_->dispatch(cmd, {&rows_, &blocks_, &rhs_, &x_[d], current, next}, rowCount_, push);
        computeToComputeBarrier(cmd);
    }
}

}  // namespace vksim::linear
