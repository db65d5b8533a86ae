#include "linear/block_sparse.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace vksim::linear {
namespace {

gpu::vec4 column4(const Eigen::Matrix3d& m, int c) {
    return {float(m(0, c)), float(m(1, c)), float(m(2, c)), 0.0f};
}

}  // namespace

BlockSparseMatrix BlockSparseMatrix::fromTriplets(uint32_t blockRows, const std::vector<BlockTriplet>& triplets) {
    // Both halves of every coupling, then a stable sort: duplicates stay in
    // input order, so their sum is the same every time.
    std::vector<BlockTriplet> entries;
    entries.reserve(2 * triplets.size() + blockRows);
    for (const BlockTriplet& t : triplets) {
        if (t.row >= blockRows || t.column >= blockRows)
            throw std::invalid_argument(
                fmt::format("block triplet ({}, {}) outside a {}-row matrix", t.row, t.column, blockRows));
        if (t.row == t.column) {
            entries.push_back({t.row, t.row, 0.5 * (t.block + t.block.transpose())});
        } else {
            entries.push_back(t);
            entries.push_back({t.column, t.row, t.block.transpose()});
        }
    }
    std::stable_sort(entries.begin(), entries.end(), [](const BlockTriplet& a, const BlockTriplet& b) {
        return a.row != b.row ? a.row < b.row : a.column < b.column;
    });

    BlockSparseMatrix m;
    m.rowStart_.assign(1, 0);
    m.diagonalIndex_.assign(blockRows, UINT32_MAX);
    size_t k = 0;
    for (uint32_t i = 0; i < blockRows; ++i) {
        while (k < entries.size() && entries[k].row == i) {
            const uint32_t j = entries[k].column;
            Eigen::Matrix3d sum = entries[k].block;
            for (++k; k < entries.size() && entries[k].row == i && entries[k].column == j; ++k) sum += entries[k].block;
            if (j == i) m.diagonalIndex_[i] = static_cast<uint32_t>(m.blocks_.size());
            m.columns_.push_back(j);
            m.blocks_.push_back(sum);
        }
        m.rowStart_.push_back(static_cast<uint32_t>(m.blocks_.size()));
    }

    m.diagonalInverses_.resize(blockRows);
    for (uint32_t i = 0; i < blockRows; ++i) {
        if (m.diagonalIndex_[i] == UINT32_MAX || m.blocks_[m.diagonalIndex_[i]].llt().info() != Eigen::Success)
            throw std::invalid_argument(fmt::format("diagonal block {} is not positive definite", i));
        m.diagonalInverses_[i] = m.blocks_[m.diagonalIndex_[i]].inverse();
    }
    return m;
}

Eigen::VectorXd BlockSparseMatrix::multiply(const Eigen::VectorXd& x) const {
    Eigen::VectorXd y = Eigen::VectorXd::Zero(x.size());
    for (uint32_t i = 0; i < blockRows(); ++i) {
        Eigen::Vector3d sum = Eigen::Vector3d::Zero();
        for (uint32_t k = rowStart_[i]; k < rowStart_[i + 1]; ++k)
            sum += blocks_[k] * x.segment<3>(Eigen::Index(3 * columns_[k]));
        y.segment<3>(Eigen::Index(3 * i)) = sum;
    }
    return y;
}

Eigen::SparseMatrix<double> BlockSparseMatrix::toEigen() const {
    std::vector<Eigen::Triplet<double>> scalars;
    scalars.reserve(9 * blocks_.size());
    for (uint32_t i = 0; i < blockRows(); ++i)
        for (uint32_t k = rowStart_[i]; k < rowStart_[i + 1]; ++k)
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c)
                    scalars.emplace_back(int(3 * i) + r, int(3 * columns_[k]) + c, blocks_[k](r, c));
    const int n = int(3 * blockRows());
    Eigen::SparseMatrix<double> A(n, n);
    A.setFromTriplets(scalars.begin(), scalars.end());
    return A;
}

JacobiSpectrum BlockSparseMatrix::jacobiSpectrum(uint32_t steps) const {
    std::vector<Eigen::Matrix3d> diagonals;
    diagonals.reserve(blockRows());
    for (uint32_t i = 0; i < blockRows(); ++i) diagonals.push_back(diagonal(i));
    auto apply = [this](const Eigen::VectorXd& x, Eigen::VectorXd& y) { y = multiply(x); };
    return estimateBlockJacobiSpectrum(diagonals, apply, steps);
}

BlockSparseMatrix BlockSparseMatrix::diagonalBlock(uint32_t first, uint32_t count) const {
    if (first > blockRows() || count > blockRows() - first)
        throw std::invalid_argument(
            fmt::format("block rows [{}, {}) outside a {}-row matrix", first, first + count, blockRows()));
    BlockSparseMatrix m;
    m.rowStart_.assign(1, 0);
    for (uint32_t i = first; i < first + count; ++i) {
        for (uint32_t k = rowStart_[i]; k < rowStart_[i + 1]; ++k) {
            if (columns_[k] < first || columns_[k] >= first + count)
                throw std::invalid_argument(fmt::format("block row {} couples to row {}, outside rows [{}, {})", i,
                                                        columns_[k], first, first + count));
            if (k == diagonalIndex_[i]) m.diagonalIndex_.push_back(static_cast<uint32_t>(m.blocks_.size()));
            m.columns_.push_back(columns_[k] - first);
            m.blocks_.push_back(blocks_[k]);
        }
        m.rowStart_.push_back(static_cast<uint32_t>(m.blocks_.size()));
        m.diagonalInverses_.push_back(diagonalInverses_[i]);
    }
    return m;
}

std::vector<gpu::LinearBlockRow> BlockSparseMatrix::gpuRows() const {
    std::vector<gpu::LinearBlockRow> rows(blockRows());
    for (uint32_t i = 0; i < blockRows(); ++i) {
        const Eigen::Matrix3d& inverse = diagonalInverses_[i];
        rows[i].inverseDiagonal0 = column4(inverse, 0);
        rows[i].inverseDiagonal1 = column4(inverse, 1);
        rows[i].inverseDiagonal2 = column4(inverse, 2);
        rows[i].first = rowStart_[i];
        rows[i].count = rowStart_[i + 1] - rowStart_[i];
    }
    return rows;
}

std::vector<gpu::LinearBlock> BlockSparseMatrix::gpuBlocks() const {
    std::vector<gpu::LinearBlock> out(blocks_.size());
    for (size_t k = 0; k < blocks_.size(); ++k) {
        out[k].column0 = column4(blocks_[k], 0);
        out[k].column1 = column4(blocks_[k], 1);
        out[k].column2 = column4(blocks_[k], 2);
        out[k].column = columns_[k];
    }
    return out;
}

}  // namespace vksim::linear
