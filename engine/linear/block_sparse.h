#pragma once
// A symmetric matrix of 3x3 blocks in compressed block rows, in double on
// the CPU (and float on the GPU: gpuRows / gpuBlocks, shared/linear_types.h):
// the system of a solver whose unknowns are 3-vectors per particle, e.g.
// M/h^2 + H of an implicit mass-spring step (docs/linear.md).
//
// Built from (row, column, block) triplets deterministically: the triplets
// are stably sorted by (row, column) and duplicates summed in input order,
// so the same triplets always give the same bits.
#include <cstdint>
#include <vector>

#include <Eigen/Dense>
#include <Eigen/Sparse>

#include "linear/jacobi_spectrum.h"
#include "shaders/shared/linear_types.h"

namespace vksim::linear {

struct BlockTriplet {
    uint32_t row = 0;
    uint32_t column = 0;
    Eigen::Matrix3d block = Eigen::Matrix3d::Zero();
};

class BlockSparseMatrix {
public:
    // A matrix of `blockRows` x `blockRows` blocks. Each off-diagonal
    // coupling is given once, in either order: (i, j, B) stores B at (i, j)
    // and B^T at (j, i), so the matrix is symmetric by construction. A
    // diagonal triplet must be symmetric (its symmetric part is stored).
    // Throws std::invalid_argument for an index out of range or a diagonal
    // block that is not positive definite (block Jacobi needs D^-1, and an
    // SPD matrix has SPD diagonal blocks).
    static BlockSparseMatrix fromTriplets(uint32_t blockRows, const std::vector<BlockTriplet>& triplets);

    uint32_t blockRows() const { return static_cast<uint32_t>(rowStart_.size()) - 1; }
    uint32_t blockCount() const { return static_cast<uint32_t>(blocks_.size()); }
    // Row i's blocks are [rowStart(i), rowStart(i + 1)), in increasing column order.
    uint32_t rowStart(uint32_t i) const { return rowStart_[i]; }
    uint32_t column(uint32_t k) const { return columns_[k]; }
    const Eigen::Matrix3d& block(uint32_t k) const { return blocks_[k]; }
    const Eigen::Matrix3d& diagonal(uint32_t i) const { return blocks_[diagonalIndex_[i]]; }
    // D_i^-1, computed once in double.
    const Eigen::Matrix3d& diagonalInverse(uint32_t i) const { return diagonalInverses_[i]; }

    // y = A x (x, y of size 3 blockRows), rows summed in stored order.
    Eigen::VectorXd multiply(const Eigen::VectorXd& x) const;
    // The same matrix as scalar entries, for reference (direct) solves.
    Eigen::SparseMatrix<double> toEigen() const;
    // The spectrum of D^-1 A with D the block diagonal (SPD blocks).
    JacobiSpectrum jacobiSpectrum(uint32_t steps = 96) const;
    // The rows and columns [first, first + count) as a matrix of their own,
    // numbered from 0: the same blocks, bits and order. Throws
    // std::invalid_argument when a row of them couples outside them (the
    // block would not be a system of its own).
    BlockSparseMatrix diagonalBlock(uint32_t first, uint32_t count) const;

    // The float copies the GPU iterates on (block_jacobi.h).
    std::vector<gpu::LinearBlockRow> gpuRows() const;
    std::vector<gpu::LinearBlock> gpuBlocks() const;

private:
    std::vector<uint32_t> rowStart_{0};
    std::vector<uint32_t> columns_;
    std::vector<Eigen::Matrix3d> blocks_;
    std::vector<uint32_t> diagonalIndex_;
    std::vector<Eigen::Matrix3d> diagonalInverses_;
};

}  // namespace vksim::linear
