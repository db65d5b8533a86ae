// The generic Jacobi spectrum estimate (engine/linear/jacobi_spectrum.h)
// against Eigen's dense generalized eigen-solver A v = mu D v, and the
// Chebyshev weights against the Chebyshev polynomials they stand for.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "linear/block_sparse.h"
#include "linear/jacobi_spectrum.h"

namespace vksim::linear {
namespace {

// A random SPD block matrix shaped like an implicit mass-spring system:
// mass * I on the diagonal plus, per random pair (i, j), a PSD coupling
// G G^T in the (i,i), (j,j) blocks and -G G^T in (i, j).
BlockSparseMatrix randomSpdBlocks(uint32_t rows, uint32_t couplings, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::uniform_int_distribution<uint32_t> pick(0, rows - 1);
    std::vector<BlockTriplet> triplets;
    for (uint32_t i = 0; i < rows; ++i) triplets.push_back({i, i, (1.0 + 0.5 * (u(rng) + 1.0)) * Eigen::Matrix3d::Identity()});
    for (uint32_t e = 0; e < couplings; ++e) {
        const uint32_t i = pick(rng), j = pick(rng);
        if (i == j) continue;
        Eigen::Matrix3d G;
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) G(r, c) = 3.0 * u(rng);
        const Eigen::Matrix3d H = G * G.transpose();
        triplets.push_back({i, i, H});
        triplets.push_back({j, j, H});
        triplets.push_back({i, j, -H});
    }
    return BlockSparseMatrix::fromTriplets(rows, triplets);
}

// Exact eigenvalues of D^-1 A: A v = mu D v with D the block diagonal.
Eigen::VectorXd exactJacobiEigenvalues(const BlockSparseMatrix& A) {
    const Eigen::MatrixXd dense(A.toEigen());
    Eigen::MatrixXd D = Eigen::MatrixXd::Zero(dense.rows(), dense.cols());
    for (uint32_t i = 0; i < A.blockRows(); ++i) D.block<3, 3>(3 * i, 3 * i) = A.diagonal(i);
    return Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd>(dense, D, Eigen::EigenvaluesOnly).eigenvalues();
}

// With at least as many Lanczos steps as unknowns the Krylov space is the
// whole space and the Ritz values are the eigenvalues, up to the rounding of
// ~n dot products (1e-10 relative is ~1e5 ulps of slack).
TEST(LinearSpectrum, BlockSpectrumIsExactWhenLanczosSpansTheSpace) {
    for (unsigned seed : {1u, 2u, 3u}) {
        const BlockSparseMatrix A = randomSpdBlocks(12, 30, seed);
        const Eigen::VectorXd mu = exactJacobiEigenvalues(A);
        const JacobiSpectrum s = A.jacobiSpectrum(96);
        std::cout << fmt::format("[linear spectrum] seed {}: 36 unknowns, mu in [{:.12f}, {:.12f}], exact [{:.12f}, {:.12f}]\n",
                                 seed, s.muMin, s.muMax, mu.minCoeff(), mu.maxCoeff());
        EXPECT_NEAR(s.muMin, mu.minCoeff(), 1e-10 * mu.maxCoeff());
        EXPECT_NEAR(s.muMax, mu.maxCoeff(), 1e-10 * mu.maxCoeff());
    }
}

// Fewer steps than unknowns: the Ritz values interlace with the spectrum
// (Cauchy interlacing for the projected T = V^T N V), so they lie inside it
// (1e-12 relative allows for rounding), and the extreme ones converge first:
// after 40 of 240 steps they are within 1% of the spectrum's width.
TEST(LinearSpectrum, BlockRitzValuesLieInsideTheSpectrum) {
    const BlockSparseMatrix A = randomSpdBlocks(80, 240, 7);
    const Eigen::VectorXd mu = exactJacobiEigenvalues(A);
    const double width = mu.maxCoeff() - mu.minCoeff();
    for (uint32_t steps : {10u, 40u}) {
        const JacobiSpectrum s = A.jacobiSpectrum(steps);
        std::cout << fmt::format("[linear spectrum] {} steps on 240 unknowns: mu in [{:.9f}, {:.9f}], exact [{:.9f}, "
                                 "{:.9f}], gaps {:.3e} / {:.3e} of the width\n",
                                 steps, s.muMin, s.muMax, mu.minCoeff(), mu.maxCoeff(),
                                 (s.muMin - mu.minCoeff()) / width, (mu.maxCoeff() - s.muMax) / width);
        EXPECT_GE(s.muMin, mu.minCoeff() - 1e-12 * width);
        EXPECT_LE(s.muMax, mu.maxCoeff() + 1e-12 * width);
        if (steps == 40) {
            EXPECT_LT(s.muMin - mu.minCoeff(), 0.01 * width);
            EXPECT_LT(mu.maxCoeff() - s.muMax, 0.01 * width);
        }
    }
}

// Scalar rows (the form PD uses): m I + k L for the Laplacian L of a path
// of 50 nodes, against a dense generalized solve; 96 steps span the space.
TEST(LinearSpectrum, ScalarRowsMatchDenseEigenvalues) {
    const uint32_t n = 50;
    const double m = 2.0, k = 30.0;
    ScalarRows A;
    Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(n, n);
    for (uint32_t i = 0; i < n; ++i) {
        const double degree = (i > 0) + (i + 1 < n);
        A.diagonal.push_back(m + k * degree);
        dense(i, i) = m + k * degree;
        for (uint32_t j : {i - 1, i + 1})
            if (j < n) {
                A.column.push_back(j);
                A.value.push_back(-k);
                dense(i, j) = -k;
            }
        A.rowStart.push_back(uint32_t(A.column.size()));
    }
    const Eigen::MatrixXd D = dense.diagonal().asDiagonal();
    const Eigen::VectorXd mu =
        Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd>(dense, D, Eigen::EigenvaluesOnly).eigenvalues();
    const JacobiSpectrum s = estimateJacobiSpectrum(A, 96);
    std::cout << fmt::format("[linear spectrum] path of {}: mu in [{:.12f}, {:.12f}], exact [{:.12f}, {:.12f}]\n", n,
                             s.muMin, s.muMax, mu.minCoeff(), mu.maxCoeff());
    EXPECT_NEAR(s.muMin, mu.minCoeff(), 1e-10);
    EXPECT_NEAR(s.muMax, mu.maxCoeff(), 1e-10);
}

// Chebyshev polynomial of the first kind, T_k(x) for |x| >= 1 or <= 1.
double chebyshevT(uint32_t k, double x) {
    double t0 = 1.0, t1 = x;
    if (k == 0) return t0;
    for (uint32_t i = 1; i < k; ++i) {
        const double t2 = 2.0 * x * t1 - t0;
        t0 = t1;
        t1 = t2;
    }
    return t1;
}

// For an eigenvector of D^-1 A with eigenvalue mu the error obeys
// e_{k+1} = omega_{k+1} ((1 - gamma mu) e_k - e_{k-1}) + e_{k-1}, and with
// Wang's omegas e_k / e_0 = T_k(lambda / rho) / T_k(1 / rho), lambda =
// 1 - gamma mu (Saad 2003, 12.3): the smallest
// worst case over [-rho, rho] any degree-k polynomial reaches. The omegas
// are floats, so the recurrence matches to ~1e-6 of e_0, not to rounding.
TEST(LinearSpectrum, ChebyshevOmegasGiveChebyshevPolynomials) {
    const JacobiSpectrum spectrum{0.05, 1.6};
    const double gamma = optimalRelaxation(spectrum);
    const double rho = relaxedJacobiSpectralRadius(spectrum, gamma);
    EXPECT_NEAR(rho, (1.6 - 0.05) / (1.6 + 0.05), 1e-15);
    const uint32_t K = 40;
    const std::vector<float> omegas = chebyshevOmegas(rho, K, true);
    double worst = 0.0;
    for (double mu : {0.05, 0.3, 0.825, 1.2, 1.6}) {
        const double lambda = 1.0 - gamma * mu;
        double previous = 1.0, current = 1.0;
        for (uint32_t k = 0; k < K; ++k) {
            const double next = double(omegas[k]) * (lambda * current - previous) + previous;
            previous = current;
            current = next;
            const double exact = chebyshevT(k + 1, lambda / rho) / chebyshevT(k + 1, 1.0 / rho);
            worst = std::max(worst, std::abs(current - exact));
        }
        EXPECT_LE(std::abs(current), 1.0 / chebyshevT(K, 1.0 / rho) * (1.0 + 1e-3) + 1e-6);
    }
    std::cout << fmt::format("[linear chebyshev] rho {:.6f}: |e_k - T_k(lambda/rho)/T_k(1/rho)| <= {:.3e} over 40 "
                             "iterations; bound after 40: {:.3e} (plain Jacobi rho^40 = {:.3e})\n",
                             rho, worst, 1.0 / chebyshevT(K, 1.0 / rho), std::pow(rho, 40.0));
    EXPECT_LT(worst, 1e-5);
    // Without Chebyshev every omega is 1: plain relaxed Jacobi.
    for (float w : chebyshevOmegas(rho, 5, false)) EXPECT_EQ(w, 1.0f);
    // The omegas tend to 2 / (1 + sqrt(1 - rho^2)).
    EXPECT_NEAR(chebyshevOmegas(rho, 400, true).back(), 2.0 / (1.0 + std::sqrt(1.0 - rho * rho)), 1e-6);
}

}  // namespace
}  // namespace vksim::linear
