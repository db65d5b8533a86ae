// The block-sparse builder (engine/linear/block_sparse.h): duplicate
// triplets summed in a fixed order, symmetric by construction, the diagonal
// inverses, the product and the Eigen conversion agreeing with each other.
#include <gtest/gtest.h>

#include <stdexcept>

#include <Eigen/Dense>

#include "linear/block_sparse.h"

namespace vksim::linear {
namespace {

Eigen::Matrix3d blockOf(double a) {
    Eigen::Matrix3d m;
    m << a, 0.1 * a, 0.2, 0.3, 2.0 * a, -0.4, 0.05, 0.6, 3.0 * a;
    return m;
}

// Symmetric to the last bit (a product B B^T need not be: its kernel may sum
// (i, j) and (j, i) in different orders), so the builder keeps it unchanged.
Eigen::Matrix3d spd(double a) {
    const Eigen::Matrix3d m = blockOf(a) * blockOf(a).transpose() + Eigen::Matrix3d::Identity();
    return 0.5 * (m + m.transpose());
}

TEST(LinearBlockSparse, DuplicatesAreSummedAndCouplingsMirrored) {
    // (0,1) given twice in one order and once in the other, (2,2) twice.
    const std::vector<BlockTriplet> triplets = {
        {0, 0, spd(1.0)}, {1, 1, spd(2.0)}, {2, 2, spd(3.0)}, {0, 1, blockOf(0.5)},
        {1, 0, blockOf(0.25)}, {2, 2, spd(0.5)}, {0, 1, blockOf(-0.125)}, {2, 1, blockOf(0.75)},
    };
    const BlockSparseMatrix A = BlockSparseMatrix::fromTriplets(3, triplets);
    ASSERT_EQ(A.blockRows(), 3u);
    ASSERT_EQ(A.blockCount(), 7u);  // 3 diagonal, (0,1) (1,0) (1,2) (2,1)
    const Eigen::MatrixXd dense(A.toEigen());
    const Eigen::Matrix3d expected01 = blockOf(0.5) + blockOf(0.25).transpose() + blockOf(-0.125);
    // The sum is formed in input order: bit for bit the same as the sum above.
    EXPECT_EQ(Eigen::Matrix3d(dense.block<3, 3>(0, 3)), expected01);
    EXPECT_EQ(Eigen::Matrix3d(dense.block<3, 3>(3, 0)), expected01.transpose());
    EXPECT_EQ(Eigen::Matrix3d(dense.block<3, 3>(6, 6)), spd(3.0) + spd(0.5));
    EXPECT_EQ(Eigen::Matrix3d(dense.block<3, 3>(3, 6)), blockOf(0.75).transpose());
    EXPECT_EQ(Eigen::Matrix3d(dense.block<3, 3>(0, 6)), Eigen::Matrix3d::Zero());
    // Symmetric exactly: mirrored blocks are transposes, not recomputed sums.
    EXPECT_EQ((dense - dense.transpose()).cwiseAbs().maxCoeff(), 0.0);
    // Columns increase within a row.
    for (uint32_t i = 0; i < A.blockRows(); ++i)
        for (uint32_t k = A.rowStart(i) + 1; k < A.rowStart(i + 1); ++k) EXPECT_LT(A.column(k - 1), A.column(k));
}

TEST(LinearBlockSparse, DiagonalInversesAndProduct) {
    const std::vector<BlockTriplet> triplets = {
        {0, 0, spd(1.0)}, {1, 1, spd(2.0)}, {2, 2, spd(3.0)}, {0, 2, blockOf(0.3)}, {1, 2, blockOf(-0.2)},
    };
    const BlockSparseMatrix A = BlockSparseMatrix::fromTriplets(3, triplets);
    // D_i^-1 D_i = I to double rounding of a 3x3 inverse (condition < 1e3 here).
    for (uint32_t i = 0; i < 3; ++i)
        EXPECT_LT((A.diagonalInverse(i) * A.diagonal(i) - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff(), 1e-12);
    Eigen::VectorXd x(9);
    x << 1, -2, 3, 0.5, 0.25, -1, 4, 0, -3;
    const Eigen::VectorXd y = A.multiply(x), reference = A.toEigen() * x;
    EXPECT_LT((y - reference).cwiseAbs().maxCoeff(), 1e-12 * reference.cwiseAbs().maxCoeff());
    // The GPU copy holds the same numbers in float, D^-1 as columns.
    const std::vector<gpu::LinearBlockRow> rows = A.gpuRows();
    const std::vector<gpu::LinearBlock> blocks = A.gpuBlocks();
    EXPECT_EQ(rows[2].first, A.rowStart(2));
    EXPECT_EQ(rows[2].count, 3u);
    EXPECT_EQ(rows[1].inverseDiagonal2.x, float(A.diagonalInverse(1)(0, 2)));
    EXPECT_EQ(blocks[1].column, 2u);
    EXPECT_EQ(blocks[1].column1.z, float(A.block(1)(2, 1)));
}

TEST(LinearBlockSparse, RejectsBadInput) {
    EXPECT_THROW(BlockSparseMatrix::fromTriplets(2, {{0, 0, spd(1.0)}, {0, 2, spd(1.0)}}), std::invalid_argument);
    // Row 1 has no diagonal block: no D^-1.
    EXPECT_THROW(BlockSparseMatrix::fromTriplets(2, {{0, 0, spd(1.0)}, {0, 1, blockOf(1.0)}}), std::invalid_argument);
    EXPECT_THROW(BlockSparseMatrix::fromTriplets(1, {{0, 0, -Eigen::Matrix3d::Identity()}}), std::invalid_argument);
}

}  // namespace
}  // namespace vksim::linear
