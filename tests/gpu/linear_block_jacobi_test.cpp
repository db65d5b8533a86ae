// GPU block Jacobi with Chebyshev acceleration (engine/linear/block_jacobi.h)
// on the system of one implicit mass-spring step, (M/h^2 + K) x = b, for a
// cloth grid of springs, against an Eigen SimplicialLDLT direct solve.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <vector>

#include <Eigen/SparseCholesky>
#include <fmt/format.h>

#include "gpu_harness.h"
#include "linear/block_jacobi.h"
#include "linear/block_sparse.h"
#include "linear/jacobi_spectrum.h"

namespace vksim::linear {
namespace {

constexpr uint32_t kSide = 10;            // particles per side
constexpr double kSpacing = 0.1;          // rest spacing [m]
constexpr double kMass = 0.01;            // per particle [kg]
constexpr double kStiffness = 1000.0;     // per spring [N/m]
constexpr double kStep = 1.0 / 60.0;      // h [s]

// The spring Hessian block of spring x = x_i - x_j, rest length L:
// H_e = k x x^T/|x|^2 + k (1 - L/|x|)(I - x x^T/|x|^2), the second term
// clamped at zero for compressed springs so that H_e is PSD (Choi and Ko
// 2002): the system stays SPD, which Jacobi and LDL^T both need.
Eigen::Matrix3d springHessian(const Eigen::Vector3d& x, double rest, double k) {
    const double length = x.norm();
    const Eigen::Matrix3d xx = x * x.transpose() / (length * length);
    return k * xx + k * std::max(0.0, 1.0 - rest / length) * (Eigen::Matrix3d::Identity() - xx);
}

struct MassSpringSystem {
    BlockSparseMatrix A;
    Eigen::VectorXd b;
};

// A 10x10 cloth in the XZ plane with structural, shear and bending springs,
// deformed (stretched along X, compressed along Z, rippled in Y) so that
// both branches of the clamp occur; b = M/h^2 d + m g for a smooth d.
MassSpringSystem massSpringSystem() {
    auto index = [](uint32_t i, uint32_t j) { return j * kSide + i; };
    std::vector<Eigen::Vector3d> x(kSide * kSide);
    for (uint32_t j = 0; j < kSide; ++j)
        for (uint32_t i = 0; i < kSide; ++i)
            x[index(i, j)] = Eigen::Vector3d(1.1 * kSpacing * i, 0.02 * std::sin(1.3 * i + 0.7 * j), 0.9 * kSpacing * j);
    std::vector<BlockTriplet> triplets;
    for (uint32_t p = 0; p < kSide * kSide; ++p)
        triplets.push_back({p, p, kMass / (kStep * kStep) * Eigen::Matrix3d::Identity()});
    auto spring = [&](uint32_t p, uint32_t q, double rest) {
        const Eigen::Matrix3d H = springHessian(x[p] - x[q], rest, kStiffness);
        triplets.push_back({p, p, H});
        triplets.push_back({q, q, H});
        triplets.push_back({p, q, -H});
    };
    for (uint32_t j = 0; j < kSide; ++j)
        for (uint32_t i = 0; i < kSide; ++i) {
            if (i + 1 < kSide) spring(index(i, j), index(i + 1, j), kSpacing);
            if (j + 1 < kSide) spring(index(i, j), index(i, j + 1), kSpacing);
            if (i + 1 < kSide && j + 1 < kSide) {
                spring(index(i, j), index(i + 1, j + 1), std::sqrt(2.0) * kSpacing);
                spring(index(i + 1, j), index(i, j + 1), std::sqrt(2.0) * kSpacing);
            }
            if (i + 2 < kSide) spring(index(i, j), index(i + 2, j), 2.0 * kSpacing);
            if (j + 2 < kSide) spring(index(i, j), index(i, j + 2), 2.0 * kSpacing);
        }
    MassSpringSystem system{BlockSparseMatrix::fromTriplets(kSide * kSide, triplets), Eigen::VectorXd(3 * kSide * kSide)};
    for (uint32_t p = 0; p < kSide * kSide; ++p) {
        const Eigen::Vector3d d(0.01 * std::cos(0.5 * p), 0.02 * std::sin(0.3 * p), 0.005);
        system.b.segment<3>(3 * p) = kMass / (kStep * kStep) * d + kMass * Eigen::Vector3d(0.0, -9.81, 0.0);
    }
    return system;
}

class LinearBlockJacobiTest : public test::GpuTest {
protected:
    void SetUp() override {
        test::GpuTest::SetUp();
        solver_ = std::make_unique<BlockJacobi>(ctx(), system_.A, "test block jacobi");
        std::vector<gpu::vec4> b(system_.A.blockRows());
        for (uint32_t p = 0; p < b.size(); ++p)
            b[p] = gpu::vec4(float(system_.b[3 * p]), float(system_.b[3 * p + 1]), float(system_.b[3 * p + 2]), 0.0f);
        solver_->rhs().uploadArray<gpu::vec4>(b);
        const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(system_.A.toEigen());
        ASSERT_EQ(ldlt.info(), Eigen::Success);
        exact_ = ldlt.solve(system_.b);
        spectrum_ = system_.A.jacobiSpectrum();
        gamma_ = optimalRelaxation(spectrum_);
        rho_ = relaxedJacobiSpectralRadius(spectrum_, gamma_);
    }
    void TearDown() override {
        solver_.reset();
        test::GpuTest::TearDown();
    }

    // x^J from x^0 = 0 on the GPU.
    std::vector<gpu::vec4> solve(uint32_t iterations, bool chebyshev) {
        const std::vector<gpu::vec4> zeros(solver_->blockRows(), gpu::vec4(0.0f));
        solver_->iterate(0).uploadArray<gpu::vec4>(zeros);
        const std::vector<float> omegas = chebyshevOmegas(rho_, iterations, chebyshev);
        ctx().submitAndWait([&](VkCommandBuffer cmd) { solver_->record(cmd, omegas, float(gamma_)); });
        return solver_->iterate(BlockJacobi::resultIndex(iterations)).downloadArray<gpu::vec4>();
    }
    double relativeError(const std::vector<gpu::vec4>& x) const {
        double error = 0.0;
        for (uint32_t p = 0; p < x.size(); ++p)
            for (int c = 0; c < 3; ++c) error += std::pow(double(x[p][c]) - exact_[3 * p + c], 2);
        return std::sqrt(error) / exact_.norm();
    }
    // The first J on a grid (every 5 to 100, then +5%) with error < target.
    uint32_t iterationsToReach(double target, bool chebyshev) {
        for (uint32_t J = 5; J <= 5000; J = J < 100 ? J + 5 : J + J / 20)
            if (relativeError(solve(J, chebyshev)) < target) return J;
        return UINT32_MAX;
    }

    MassSpringSystem system_ = massSpringSystem();
    std::unique_ptr<BlockJacobi> solver_;
    Eigen::VectorXd exact_;
    JacobiSpectrum spectrum_;
    double gamma_ = 1.0, rho_ = 0.0;
};

// The error falls with the iteration count until float32 rounding stops it.
// Floor: the GPU forms b - A x in float, so the fixed point it converges to
// solves a system perturbed by |delta r_i| <~ n_i eps |A_i| |x| (n_i: the
// terms of row i, 39 at most here), and the error that causes is amplified
// by at most kappa(D^-1 A) = mu_max / mu_min: floor = 39 eps32 kappa.
TEST_F(LinearBlockJacobiTest, ChebyshevConvergesToTheDirectSolveDownToTheFloat32Floor) {
    const double kappa = spectrum_.muMax / spectrum_.muMin;
    const double floor = 39.0 * std::ldexp(1.0, -24) * kappa;
    std::cout << fmt::format("[block jacobi] {} block rows, mu in [{:.5f}, {:.5f}], kappa {:.1f}, gamma {:.5f}, rho "
                             "{:.5f}, float32 floor {:.2e}\n",
                             system_.A.blockRows(), spectrum_.muMin, spectrum_.muMax, kappa, gamma_, rho_, floor);
    ASSERT_LT(floor, 1e-3);
    double previous = 1.0, at200 = 0.0;
    for (uint32_t J : {10u, 25u, 50u, 100u, 200u, 400u}) {
        const double chebyshev = relativeError(solve(J, true)), plain = relativeError(solve(J, false));
        std::cout << fmt::format("[block jacobi] {:4} iterations: relative error {:.3e} (Chebyshev), {:.3e} (plain)\n",
                                 J, chebyshev, plain);
        if (previous > floor) {
            EXPECT_LT(chebyshev, previous) << J << " iterations";
        }
        EXPECT_LE(chebyshev, plain * 1.0001 + floor) << J << " iterations";
        previous = chebyshev;
        if (J == 200) at200 = chebyshev;
    }
    // Reached the floor (a worst-case bound; typical rounding is far
    // smaller, printed in units of eps32) and stays there: rounding does not
    // accumulate over further iterations.
    std::cout << fmt::format("[block jacobi] final error {:.1f} eps32\n", previous / std::ldexp(1.0, -24));
    EXPECT_LT(previous, floor);
    EXPECT_LT(previous, 2.0 * at200);
}

TEST_F(LinearBlockJacobiTest, ChebyshevNeedsFewerIterationsThanPlainJacobi) {
    const uint32_t chebyshev = iterationsToReach(1e-3, true);
    const uint32_t plain = iterationsToReach(1e-3, false);
    // Plain relaxed Jacobi contracts by rho per iteration, Chebyshev by about
    // rho / (1 + sqrt(1 - rho^2)) (Saad 2003, 12.3).
    const double predictedPlain = std::log(1e-3) / std::log(rho_);
    const double predictedChebyshev = std::log(1e-3 / 2.0) / std::log(rho_ / (1.0 + std::sqrt(1.0 - rho_ * rho_)));
    std::cout << fmt::format("[block jacobi] iterations to relative error 1e-3: Chebyshev {}, plain {} (predicted "
                             "~{:.0f} and ~{:.0f} from rho {:.5f})\n",
                             chebyshev, plain, predictedChebyshev, predictedPlain, rho_);
    ASSERT_NE(chebyshev, UINT32_MAX);
    EXPECT_LT(chebyshev, plain);
}

TEST_F(LinearBlockJacobiTest, TwoRunsAreBitIdentical) {
    const std::vector<gpu::vec4> a = solve(137, true), b = solve(137, true);
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(gpu::vec4)), 0);
}

}  // namespace
}  // namespace vksim::linear
