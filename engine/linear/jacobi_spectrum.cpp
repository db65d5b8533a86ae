#include "linear/jacobi_spectrum.h"

#include <algorithm>
#include <cmath>

namespace vksim::linear {

JacobiSpectrum lanczosExtremeRitzValues(size_t n, const SymmetricApply& apply, uint32_t steps) {
    if (n == 0) return {};
    const size_t m = std::min<size_t>(steps, n);
    const auto rowsCount = static_cast<Eigen::Index>(n);
    Eigen::MatrixXd basis(rowsCount, static_cast<Eigen::Index>(m));
    std::vector<double> alpha, beta;
    Eigen::VectorXd v(rowsCount), w(rowsCount);
    // A fixed start vector with every component non-zero.
    for (size_t i = 0; i < n; ++i) v[Eigen::Index(i)] = 1.0 + 0.5 * std::sin(1.7 * double(i) + 0.3);
    v.normalize();
    for (size_t j = 0; j < m; ++j) {
        basis.col(Eigen::Index(j)) = v;
        apply(v, w);
        alpha.push_back(v.dot(w));
        // Full reorthogonalisation (twice) against every previous vector:
        // without it the Lanczos vectors lose orthogonality as Ritz values
        // converge and ghost copies appear (Saad 2003, 6.6).
        for (int pass = 0; pass < 2; ++pass)
            for (size_t i = 0; i <= j; ++i) w -= basis.col(Eigen::Index(i)).dot(w) * basis.col(Eigen::Index(i));
        const double b = w.norm();
        if (j + 1 == m || b < 1e-12) break;
        beta.push_back(b);
        v = w / b;
    }
    const Eigen::Index k = Eigen::Index(alpha.size());
    Eigen::MatrixXd T = Eigen::MatrixXd::Zero(k, k);
    for (Eigen::Index i = 0; i < k; ++i) {
        T(i, i) = alpha[size_t(i)];
        if (i + 1 < k) T(i, i + 1) = T(i + 1, i) = beta[size_t(i)];
    }
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(T, Eigen::EigenvaluesOnly);
    return {eigen.eigenvalues().minCoeff(), eigen.eigenvalues().maxCoeff()};
}

JacobiSpectrum estimateJacobiSpectrum(const ScalarRows& A, uint32_t steps) {
    const size_t n = A.diagonal.size();
    std::vector<double> invSqrtD(n);
    for (size_t i = 0; i < n; ++i) invSqrtD[i] = 1.0 / std::sqrt(A.diagonal[i]);
    // y = D^-1/2 A D^-1/2 x. The order of the operations is part of the
    // contract: PD's gamma and rho come from here and must not change by a
    // bit (tests/unit/pd_spectrum_golden_test.cpp).
    auto apply = [&](const Eigen::VectorXd& x, Eigen::VectorXd& y) {
        for (size_t i = 0; i < n; ++i) {
            double sum = A.diagonal[i] * invSqrtD[i] * x[Eigen::Index(i)];
            for (uint32_t k = A.rowStart[i]; k < A.rowStart[i + 1]; ++k)
                sum += A.value[k] * invSqrtD[A.column[k]] * x[Eigen::Index(A.column[k])];
            y[Eigen::Index(i)] = invSqrtD[i] * sum;
        }
    };
    return lanczosExtremeRitzValues(n, apply, steps);
}

JacobiSpectrum estimateBlockJacobiSpectrum(std::span<const Eigen::Matrix3d> diagonalBlocks,
                                           const SymmetricApply& applyA, uint32_t steps) {
    // S = D^-1/2 block by block (the symmetric inverse square root of each
    // SPD block), so that S A S is symmetric with the eigenvalues of D^-1 A.
    std::vector<Eigen::Matrix3d> S;
    S.reserve(diagonalBlocks.size());
    for (const Eigen::Matrix3d& block : diagonalBlocks)
        S.push_back(Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(block).operatorInverseSqrt());
    const size_t n = 3 * S.size();
    const auto size = static_cast<Eigen::Index>(n);
    Eigen::VectorXd scaled(size), product(size);
    auto apply = [&](const Eigen::VectorXd& x, Eigen::VectorXd& y) {
        for (size_t i = 0; i < S.size(); ++i) scaled.segment<3>(Eigen::Index(3 * i)) = S[i] * x.segment<3>(Eigen::Index(3 * i));
        applyA(scaled, product);
        for (size_t i = 0; i < S.size(); ++i) y.segment<3>(Eigen::Index(3 * i)) = S[i] * product.segment<3>(Eigen::Index(3 * i));
    };
    return lanczosExtremeRitzValues(n, apply, steps);
}

namespace {
// Chebyshev's weights tend to 2 / (1 + sqrt(1 - rho^2)): finite below 1.
constexpr double kMaxSpectralRadius = 0.9999;
}  // namespace

double relaxedJacobiSpectralRadius(const JacobiSpectrum& spectrum, double gamma) {
    const double rho = std::max(std::abs(1.0 - gamma * spectrum.muMin), std::abs(1.0 - gamma * spectrum.muMax));
    return std::min(rho, kMaxSpectralRadius);
}

double optimalRelaxation(const JacobiSpectrum& spectrum) {
    const double width = (spectrum.muMax - spectrum.muMin) / (spectrum.muMax + spectrum.muMin);
    // Too wide for the cap on rho: the capped interval [1 - rho, 1 + rho]
    // must still reach gamma mu_max, since an eigenvalue above the interval
    // grows under Chebyshev; one below it only converges slowly.
    if (width > kMaxSpectralRadius) return (1.0 + kMaxSpectralRadius) / spectrum.muMax;
    return 2.0 / (spectrum.muMin + spectrum.muMax);
}

std::vector<float> chebyshevOmegas(double rho, uint32_t iterations, bool chebyshev) {
    std::vector<float> omegas(iterations, 1.0f);
    if (!chebyshev) return omegas;
    double omega = 1.0;
    for (uint32_t k = 0; k < iterations; ++k) {
        if (k == 1) omega = 2.0 / (2.0 - rho * rho);
        else if (k > 1) omega = 4.0 / (4.0 - rho * rho * omega);
        omegas[k] = static_cast<float>(omega);
    }
    return omegas;
}

}  // namespace vksim::linear
