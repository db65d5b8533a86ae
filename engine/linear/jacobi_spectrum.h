#pragma once
// Spectrum of the Jacobi iteration for a symmetric positive definite A with
// its (block-)diagonal D, and the relaxation and Chebyshev weights derived
// from it (docs/linear.md; Wang 2015; Saad, "Iterative Methods for Sparse
// Linear Systems", 6.6 and 12.3). The Jacobi iteration matrix is I - D^-1 A,
// with under-relaxation I - gamma D^-1 A; everything here works from the
// extreme eigenvalues mu of D^-1 A, estimated by Lanczos on the symmetric
// D^-1/2 A D^-1/2 (same eigenvalues).
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include <Eigen/Dense>

namespace vksim::linear {

// Extreme eigenvalues of D^-1 A. Ritz values lie inside the spectrum: muMin
// is slightly high, muMax slightly low.
struct JacobiSpectrum {
    double muMin = 1.0;
    double muMax = 1.0;
};

// y = N x for a symmetric N on R^n (y has size n on entry).
using SymmetricApply = std::function<void(const Eigen::VectorXd& x, Eigen::VectorXd& y)>;

// Extreme Ritz values of N after `steps` steps of Lanczos with full
// reorthogonalisation from a fixed start vector (deterministic). Exact when
// steps >= n; {1, 1} for n = 0.
JacobiSpectrum lanczosExtremeRitzValues(size_t n, const SymmetricApply& apply, uint32_t steps);

// A symmetric matrix of scalar rows: its diagonal and its off-diagonal
// entries in compressed rows (row i's entries at [rowStart[i], rowStart[i+1])).
struct ScalarRows {
    std::vector<double> diagonal;
    std::vector<uint32_t> rowStart{0};
    std::vector<uint32_t> column;
    std::vector<double> value;
};

// The spectrum of D^-1 A for scalar rows, D = diag(A).
JacobiSpectrum estimateJacobiSpectrum(const ScalarRows& A, uint32_t steps = 96);

// The spectrum of D^-1 A for 3x3 block rows, D = the block diagonal
// (symmetric positive definite blocks), A given by y = A x.
JacobiSpectrum estimateBlockJacobiSpectrum(std::span<const Eigen::Matrix3d> diagonalBlocks,
                                           const SymmetricApply& applyA, uint32_t steps = 96);

// Spectral radius of the relaxed Jacobi iteration matrix I - gamma D^-1 A,
// max |1 - gamma mu| over the spectrum, capped at 0.9999 so that the
// Chebyshev weights stay finite.
double relaxedJacobiSpectralRadius(const JacobiSpectrum& spectrum, double gamma);

// The relaxation that centres the spectrum of I - gamma D^-1 A on zero,
// gamma = 2 / (mu_min + mu_max): the smallest spectral radius,
// (mu_max - mu_min) / (mu_max + mu_min), and the symmetric interval
// [-rho, rho] Chebyshev acceleration assumes. It exceeds 1 (over-relaxation)
// when mu_min + mu_max < 2. When that radius exceeds the cap of
// relaxedJacobiSpectralRadius, gamma = (1 + cap) / mu_max instead: the
// capped interval then still ends at gamma mu_max (above it Chebyshev
// diverges) and gives up its bottom (below it convergence is only slower).
double optimalRelaxation(const JacobiSpectrum& spectrum);

// omega_{k+1} for k = 0 .. iterations-1 (Wang 2015, eq. 12): 1,
// 2/(2 - rho^2), then 4/(4 - rho^2 omega_k). All 1 without Chebyshev
// (plain relaxed Jacobi).
std::vector<float> chebyshevOmegas(double rho, uint32_t iterations, bool chebyshev);

}  // namespace vksim::linear
