#pragma once
// GPU block-Jacobi iterations with Chebyshev acceleration on a symmetric
// 3x3-block matrix (block_sparse.h; shaders/linear/block_jacobi.comp;
// docs/linear.md). Owns the matrix's float copy, the right-hand side and
// three iterate buffers in rotation; one dispatch per iteration.
//
// Use: write b into rhs() and x^0 into iterate(0) (uploads, or compute
// passes the caller orders before record()), pick gamma and the omegas from
// the matrix's spectrum (jacobi_spectrum.h), record(), then read
// iterate(resultIndex(J)).
#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <volk.h>

#include "linear/block_sparse.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {
class VulkanContext;
}

namespace vksim::linear {

class BlockJacobi {
public:
    BlockJacobi(const VulkanContext& ctx, const BlockSparseMatrix& A, const std::string& name);
    // A matrix whose values a compute pass writes (an implicit solver's
    // Hessian, assembled on the GPU every Newton iteration): the pattern of
    // block rows, rowStart (blockRows + 1 entries) and the ascending columns
    // of each row; rows() holds first/count and blocks() the columns, both
    // with zero values until the writer fills them.
    BlockJacobi(const VulkanContext& ctx, std::span<const uint32_t> rowStart, std::span<const uint32_t> columns,
                const std::string& name);
    ~BlockJacobi();
    BlockJacobi(const BlockJacobi&) = delete;
    BlockJacobi& operator=(const BlockJacobi&) = delete;

    uint32_t blockRows() const { return rowCount_; }
    // b, one vec4 per block row (xyz).
    GpuBuffer& rhs() { return rhs_; }
    const GpuBuffer& rhs() const { return rhs_; }
    // The matrix: LinearBlockRow per row, LinearBlock per block.
    const GpuBuffer& rows() const { return rows_; }
    const GpuBuffer& blocks() const { return blocks_; }
    // The three iterates in rotation; x^0 goes in iterate(0), x^k ends in
    // iterate(resultIndex(k)). w is carried through unchanged.
    GpuBuffer& iterate(uint32_t index) { return x_[index]; }
    const GpuBuffer& iterate(uint32_t index) const { return x_[index]; }
    static uint32_t resultIndex(uint32_t iterations) { return iterations % 3; }

    // Records omegas.size() iterations from iterate(0), iteration k with
    // omega_{k+1} = omegas[k] (chebyshevOmegas; all 1 for plain relaxed
    // Jacobi) and relaxation gamma. A compute->compute barrier follows every
    // dispatch, so the next iteration, and any compute pass after, sees it.
    void record(VkCommandBuffer cmd, std::span<const float> omegas, float gamma) const;

    // Iteration k (0-based) one dispatch at a time, for a caller that times
    // it as its own pass: the kernel, its buffers in binding order and its
    // push constants; dispatch rowCount threads, then a compute barrier.
    const ComputeKernel& kernel() const { return *kernel_; }
    std::array<const GpuBuffer*, 6> iterationBuffers(uint32_t k) const;
    gpu::BlockJacobiPush iterationPush(float omega, float gamma) const;
    // The push of iteration k for a kernel that reads each row's copy's
    // weights (BLOCK_JACOBI_COPY_WEIGHTS in shaders/linear/block_jacobi.glsl).
    gpu::BlockJacobiPush copyWeightsPush(uint32_t k) const;

private:
    // Both public constructors: uploads the rows and blocks, allocates b and x.
    BlockJacobi(const VulkanContext& ctx, const std::vector<gpu::LinearBlockRow>& rows,
                const std::vector<gpu::LinearBlock>& blocks, const std::string& name);

    uint32_t rowCount_ = 0;
    GpuBuffer rows_, blocks_, rhs_;
    std::array<GpuBuffer, 3> x_;
    std::unique_ptr<ComputeKernel> kernel_;
    // [0]: x^0 -> x^1 (x^{-1} = x^0); [1 + c]: (x_c, x_{c+1}) -> x_{c+2}.
};

}  // namespace vksim::linear
