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

    kernel_ = std::make_unique<ComputeKernel>(ctx, "linear/block_jacobi.comp", sizeof(gpu::BlockJacobiPush),
                                              uint32_t(sets_.size()));
    // Binding order = the shader's: rows, blocks, rhs, previous, current, next.
    sets_[0] = kernel_->bind({&rows_, &blocks_, &rhs_, &x_[0], &x_[0], &x_[1]}, name + " (x0, x0 -> x1)");
    for (uint32_t c = 0; c < 3; ++c)
        sets_[1 + c] = kernel_->bind({&rows_, &blocks_, &rhs_, &x_[c], &x_[(c + 1) % 3], &x_[(c + 2) % 3]},
                                     fmt::format("{} (x{}, x{} -> x{})", name, c, (c + 1) % 3, (c + 2) % 3));
}

BlockJacobi::~BlockJacobi() = default;

void BlockJacobi::record(VkCommandBuffer cmd, std::span<const float> omegas, float gamma) const {
    gpu::BlockJacobiPush push{};
    push.rowCount = rowCount_;
    push.gamma = gamma;
    for (size_t k = 0; k < omegas.size(); ++k) {
        push.omega = omegas[k];
        // Iteration k reads x^{k-1} (in x_{(k-1)%3}) and x^k, writes x^{k+1}.
        const VkDescriptorSet set = k == 0 ? sets_[0] : sets_[1 + (k - 1) % 3];
        dispatch(cmd, *kernel_, set, rowCount_, push);
        computeToComputeBarrier(cmd);
    }
}

}  // namespace vksim::linear
