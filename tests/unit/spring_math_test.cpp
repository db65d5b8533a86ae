// The shared mass-spring math (shaders/springs/spring_math.glsl, compiled as
// C++ double): spring forces and clamped Hessians against finite
// differences of the energy, the locking-remedy branches, and the sign and
// balance of Bridson's dihedral bending forces (docs/physics.md §9.3-§9.5).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <iostream>

#include <fmt/format.h>

#include "geometry/shared_math.h"
#include "../common/matrix_norms.h"

namespace vksim {
namespace {

using test::maxAbs;

using glm::dmat3;
using glm::dvec3;

// Central differences with step e: error e^2/6 |E'''| ~ 1e-12 k for these
// unit-sized springs, far above rounding (1e-16 E / e = 1e-10 relative at
// e = 1e-6 for E ~ 1) only when e is too small; 1e-6 balances them, so
// the comparisons hold to 1e-7 relative.
constexpr double kStep = 1e-6;

dvec3 numericForce(dvec3 xi, dvec3 xj, double L, double k, double cs, double slack) {
    dvec3 f(0.0);
    for (int c = 0; c < 3; ++c) {
        dvec3 plus = xi, minus = xi;
        plus[c] += kStep;
        minus[c] -= kStep;
        f[c] = -(ref::springTerms(plus, xj, L, k, cs, slack).energy -
                 ref::springTerms(minus, xj, L, k, cs, slack).energy) /
               (2.0 * kStep);
    }
    return f;
}

dmat3 numericHessian(dvec3 xi, dvec3 xj, double L, double k, double cs, double slack) {
    dmat3 H(0.0);
    for (int c = 0; c < 3; ++c) {
        dvec3 plus = xi, minus = xi;
        plus[c] += kStep;
        minus[c] -= kStep;
        // Column c: -d force / d xi_c.
        H[c] = -(ref::springTerms(plus, xj, L, k, cs, slack).force - ref::springTerms(minus, xj, L, k, cs, slack).force) /
               (2.0 * kStep);
    }
    return H;
}

// Stretched (the branch Newton sees most): force = -dE/dx_i and the block
// is the exact Hessian, no clamp.
TEST(SpringMath, StretchedSpringMatchesFiniteDifferences) {
    const dvec3 xi(0.3, -0.2, 0.5), xj(-0.4, 0.6, 0.1);
    const double l = glm::length(xi - xj), L = 0.7 * l, k = 250.0;
    const ref::SpringTerms t = ref::springTerms(xi, xj, L, k, 0.5, 0.1);
    const double forceError = glm::length(t.force - numericForce(xi, xj, L, k, 0.5, 0.1)) / glm::length(t.force);
    const double hessianError = maxAbs(t.hessian - numericHessian(xi, xj, L, k, 0.5, 0.1)) / maxAbs(t.hessian);
    const double energyError = std::abs(t.energy - 0.5 * k * (l - L) * (l - L));
    std::cout << fmt::format("[spring math] stretched: force {:.2e}, hessian {:.2e} relative, energy {:.2e} J\n",
                             forceError, hessianError, energyError);
    EXPECT_LT(forceError, 1e-7);
    EXPECT_LT(hessianError, 1e-7);
    EXPECT_LT(energyError, 1e-12);
    // The force on j is minus the force on i, bit for bit (d -> -d).
    EXPECT_EQ(ref::springTerms(xj, xi, L, k, 0.5, 0.1).force, -t.force);
}

// Compressed (slack 0): the force is still -dE/dx_i, but the block drops
// the negative geometric term k (1 - L/l)(I - n n^T) (Choi & Ko 2002): it
// is the finite-difference Hessian minus that term, and positive
// semi-definite.
TEST(SpringMath, CompressedSpringClampsTheGeometricTerm) {
    const dvec3 xi(0.1, 0.2, -0.1), xj(-0.2, 0.1, 0.3);
    const double l = glm::length(xi - xj), L = 1.5 * l, k = 80.0;
    const ref::SpringTerms t = ref::springTerms(xi, xj, L, k, 1.0, 0.0);
    const dvec3 n = (xi - xj) / l;
    const dmat3 nn = glm::outerProduct(n, n);
    const dmat3 geometric = k * (1.0 - L / l) * (dmat3(1.0) - nn);
    const double forceError = glm::length(t.force - numericForce(xi, xj, L, k, 1.0, 0.0)) / glm::length(t.force);
    const double clampError = maxAbs(t.hessian - (numericHessian(xi, xj, L, k, 1.0, 0.0) - geometric)) / k;
    const double nnError = maxAbs(t.hessian - k * nn) / k;
    std::cout << fmt::format("[spring math] compressed: force {:.2e}, clamped hessian {:.2e}, k nn^T {:.2e}\n",
                             forceError, clampError, nnError);
    EXPECT_LT(forceError, 1e-7);
    EXPECT_LT(clampError, 1e-7);
    EXPECT_LT(nnError, 1e-15);
}

// The locking remedies (§9.4): slack between L (1 - slack) and L, the
// scaled compression branch below it about the slack length, and energy
// and force continuous at both branch points.
TEST(SpringMath, SlackAndCompressionBranches) {
    const dvec3 xj(0.0);
    const dvec3 dir = glm::normalize(dvec3(1.0, 2.0, -0.5));
    const double L = 1.0, k = 300.0, cs = 0.2, slack = 0.1, Ls = L * (1.0 - slack);
    auto at = [&](double l) { return ref::springTerms(xj + l * dir, xj, L, k, cs, slack); };

    const ref::SpringTerms inSlack = at(0.95);
    EXPECT_EQ(inSlack.energy, 0.0);
    EXPECT_EQ(glm::length(inSlack.force), 0.0);
    EXPECT_EQ(maxAbs(inSlack.hessian), 0.0);

    const double l = 0.6;
    const ref::SpringTerms below = at(l);
    const double energyError = std::abs(below.energy - 0.5 * cs * k * (l - Ls) * (l - Ls));
    const double forceError =
        glm::length(below.force - numericForce(xj + l * dir, xj, L, k, cs, slack)) / glm::length(below.force);
    std::cout << fmt::format("[spring math] below slack: energy {:.2e} J, force {:.2e} relative\n", energyError,
                             forceError);
    EXPECT_LT(energyError, 1e-12);
    EXPECT_LT(forceError, 1e-7);

    // Across a branch point the energy and the force change by what a
    // length change of 2e = 2e-9 moves them on the stiffer side:
    // k e^2 ~ 3e-16 J and k e ~ 3e-7 N.
    const double e = 1e-9;
    for (double point : {L, Ls}) {
        const double jumpE = std::abs(at(point + e).energy - at(point - e).energy);
        const double jumpF = glm::length(at(point + e).force - at(point - e).force);
        std::cout << fmt::format("[spring math] at l = {:.2f}: energy jump {:.2e} J, force jump {:.2e} N\n", point,
                                 jumpE, jumpF);
        EXPECT_LT(jumpE, 1e-14);
        EXPECT_LT(jumpF, 2.0 * k * e * 1.01);
    }
}

struct Hinge {
    std::array<dvec3, 4> x;
};

// The angle's gradient per vertex by central differences.
std::array<dvec3, 4> angleGradient(const Hinge& hinge) {
    std::array<dvec3, 4> g{};
    for (int v = 0; v < 4; ++v)
        for (int c = 0; c < 3; ++c) {
            Hinge plus = hinge, minus = hinge;
            plus.x[v][c] += kStep;
            minus.x[v][c] -= kStep;
            g[v][c] = (ref::dihedralAngle(plus.x[0], plus.x[1], plus.x[2], plus.x[3]) -
                       ref::dihedralAngle(minus.x[0], minus.x[1], minus.x[2], minus.x[3])) /
                      (2.0 * kStep);
        }
    return g;
}

// Bridson et al. 2003: F_k = -k |E|^2/(|N1| + |N2|) (sin(theta/2) -
// sin(theta0/2)) dtheta/dx_k, since their u_k are -dtheta/dx_k. So a hinge
// bent past its rest angle is pushed back (the forces do negative work on
// theta), the forces sum to zero (theta is translation invariant) and
// their torque vanishes (theta is rotation invariant).
TEST(SpringMath, DihedralForcesPushTheHingeBack) {
    // Edge along x, wing tips at +z (x2) and -z (x3): flat, normals along -y.
    const Hinge flat{{dvec3(0.0, 0.0, 0.0), dvec3(1.0, 0.0, 0.0), dvec3(0.5, 0.0, 0.8), dvec3(0.4, 0.0, -0.9)}};
    EXPECT_EQ(ref::dihedralAngle(flat.x[0], flat.x[1], flat.x[2], flat.x[3]), 0.0);
    // Both tips lifted to +y, away from the normals' side: theta > 0.
    Hinge folded = flat;
    folded.x[2].y += 0.3;
    folded.x[3].y += 0.2;
    const double theta = ref::dihedralAngle(folded.x[0], folded.x[1], folded.x[2], folded.x[3]);
    EXPECT_GT(theta, 0.0);
    std::cout << fmt::format("[spring math] tips lifted against the normals: theta = {:.4f} rad\n", theta);

    const double k = 3.0;
    for (double rest : {0.0, 0.3, -0.4, theta + 0.2}) {
        std::array<dvec3, 4> f{};
        dvec3 sum(0.0), torque(0.0), centroid(0.0);
        for (int v = 0; v < 4; ++v) centroid += 0.25 * folded.x[v];
        for (uint32_t v = 0; v < 4; ++v) {
            f[v] = ref::dihedralForce(folded.x[0], folded.x[1], folded.x[2], folded.x[3], rest, k, v);
            sum += f[v];
            torque += glm::cross(folded.x[v] - centroid, f[v]);
        }
        const std::array<dvec3, 4> g = angleGradient(folded);
        const dvec3 e = folded.x[1] - folded.x[0];
        const dvec3 n1 = glm::cross(folded.x[2] - folded.x[0], folded.x[2] - folded.x[1]);
        const dvec3 n2 = glm::cross(folded.x[3] - folded.x[1], folded.x[3] - folded.x[0]);
        const double scale = k * glm::dot(e, e) / (glm::length(n1) + glm::length(n2)) *
                             (std::sin(0.5 * theta) - std::sin(0.5 * rest));
        double work = 0.0, gradientError = 0.0, size = 0.0;
        for (int v = 0; v < 4; ++v) {
            work += glm::dot(f[v], g[v]);
            gradientError = std::max(gradientError, glm::length(f[v] + scale * g[v]));
            size = std::max(size, glm::length(f[v]));
        }
        std::cout << fmt::format(
            "[spring math] rest {:+.2f}: sum F.dtheta/dx {:+.3e} (theta - rest {:+.3f}), |F + s grad theta| {:.2e}, "
            "|sum F| {:.2e}, |torque| {:.2e} (max |F| {:.2e})\n",
            rest, work, theta - rest, gradientError, glm::length(sum), glm::length(torque), size);
        // Restoring: the virtual work on theta has the sign of rest - theta.
        EXPECT_LT(work * (theta - rest), 0.0);
        // The finite-difference gradient is good to ~1e-10 here (see kStep).
        EXPECT_LT(gradientError, 1e-8 * size);
        EXPECT_LT(glm::length(sum), 1e-14 * size);
        EXPECT_LT(glm::length(torque), 1e-14 * size);
    }
}

}  // namespace
}  // namespace vksim
