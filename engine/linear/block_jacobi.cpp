#include "linear/block_jacobi.h"

#include <vector>

#include <fmt/format.h>

#include "shaders/shared/linear_types.h"
#include "vk/barriers.h"

namespace vksim::linear {

namespace {

// The rows and blocks of a pattern whose values a compute pass writes: each
// row's first/count and each block's column, every value zero.
std::vector<gpu::LinearBlockRow> patternRows(std::span<const uint32_t> rowStart) {
    std::vector<gpu::LinearBlockRow> rows(rowStart.empty() ? 0 : rowStart.size() - 1, gpu::LinearBlockRow{});
    for (size_t r = 0; r < rows.size(); ++r) {
        rows[r].first = rowStart[r];
        rows[r].count = rowStart[r + 1] - rowStart[r];
    }
    return rows;
}

std::vector<gpu::LinearBlock> patternBlocks(std::span<const uint32_t> columns) {
    std::vector<gpu::LinearBlock> blocks(columns.size(), gpu::LinearBlock{});
    for (size_t k = 0; k < columns.size(); ++k) blocks[k].column = columns[k];
    return blocks;
}

}  // namespace

BlockJacobi::BlockJacobi(const VulkanContext& ctx, const BlockSparseMatrix& A, const std::string& name)
    : BlockJacobi(ctx, A.gpuRows(), A.gpuBlocks(), name) {}

BlockJacobi::BlockJacobi(const VulkanContext& ctx, std::span<const uint32_t> rowStart,
                         std::span<const uint32_t> columns, const std::string& name)
    : BlockJacobi(ctx, patternRows(rowStart), patternBlocks(columns), name) {}

BlockJacobi::BlockJacobi(const VulkanContext& ctx, const std::vector<gpu::LinearBlockRow>& rows,
                         const std::vector<gpu::LinearBlock>& blocks, const std::string& name)
    : rowCount_(static_cast<uint32_t>(rows.size())) {
    const std::vector<gpu::vec4> zeros(rowCount_, gpu::vec4(0.0f));
    rows_ = makeStorageBuffer<gpu::LinearBlockRow>(ctx, rows, name + " rows");
    blocks_ = makeStorageBuffer<gpu::LinearBlock>(ctx, blocks, name + " blocks");
    rhs_ = makeStorageBuffer<gpu::vec4>(ctx, zeros, name + " rhs");
    for (uint32_t c = 0; c < 3; ++c) x_[c] = makeStorageBuffer<gpu::vec4>(ctx, zeros, fmt::format("{} x{}", name, c));
    kernel_ = std::make_unique<ComputeKernel>(ctx, "linear/block_jacobi.comp", sizeof(gpu::BlockJacobiPush));
}

BlockJacobi::~BlockJacobi() = default;

std::array<const GpuBuffer*, 6> BlockJacobi::iterationBuffers(uint32_t k) const {
    // Iteration k reads x^{k-1} (in x_{(k-1)%3}) and x^k, writes x^{k+1};
    // the first has x^{-1} = x^0. Binding order = the shader's: rows,
    // blocks, rhs, previous, current, next.
    const size_t d = k == 0 ? 0 : (k - 1) % 3;
    const GpuBuffer* current = k == 0 ? &x_[0] : &x_[(d + 1) % 3];
    const GpuBuffer* next = k == 0 ? &x_[1] : &x_[(d + 2) % 3];
    return {&rows_, &blocks_, &rhs_, &x_[d], current, next};
}

gpu::BlockJacobiPush BlockJacobi::iterationPush(float omega, float gamma) const {
    gpu::BlockJacobiPush push{};
    push.rowCount = rowCount_;
    push.omega = omega;
    push.gamma = gamma;
    return push;
}

gpu::BlockJacobiPush BlockJacobi::copyWeightsPush(uint32_t k) const {
    gpu::BlockJacobiPush push{};
    push.rowCount = rowCount_;
    push.iteration = k;
    return push;
}

void BlockJacobi::record(VkCommandBuffer cmd, std::span<const float> omegas, float gamma) const {
    for (size_t k = 0; k < omegas.size(); ++k) {
        const std::array<const GpuBuffer*, 6> buffers = iterationBuffers(static_cast<uint32_t>(k));
        kernel_->dispatch(cmd, {buffers[0], buffers[1], buffers[2], buffers[3], buffers[4], buffers[5]}, rowCount_,
                          iterationPush(omegas[k], gamma));
        computeToComputeBarrier(cmd);
    }
}

}  // namespace vksim::linear
