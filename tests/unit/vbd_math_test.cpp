// The shared math of the VBD solids (shaders/vbd/vbd_math.glsl and
// math/elastic_energy.glsl as C++ double): each vertex's gradient V P g is
// the derivative of the tet's energy V Psi in that vertex, and its block
// elasticVertexHessian the derivative of that gradient: exact for stable
// Neo-Hookean, for every F (inverted ones too); for fixed corotated the
// rotation-held block, positive semi-definite and above the exact one
// wherever F is not inverted (what leaving out dR/dF does).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <iostream>
#include <random>

#include <fmt/format.h>

#include "geometry/shared_math.h"
#include "../common/matrix_norms.h"

namespace vksim::test {
namespace {

using glm::dmat3;
using glm::dvec3;

struct Tet {
    std::array<dvec3, 4> x;
    dvec3 g1, g2, g3;
    double volume = 0.0;
};

// A rest tet (a unit corner, scaled) and its positions deformed by `F`,
// plus a perturbation of each vertex.
Tet deformedTet(const dmat3& F, std::mt19937& rng, double noise) {
    const std::array<dvec3, 4> rest{dvec3(0.0), dvec3(0.3, 0.0, 0.0), dvec3(0.05, 0.25, 0.0), dvec3(0.02, 0.04, 0.2)};
    const dmat3 Dm(rest[1] - rest[0], rest[2] - rest[0], rest[3] - rest[0]);
    const dmat3 Bm = glm::inverse(Dm);  // Bm[column][row]: row k of Dm^-1 is (Bm[0][k], Bm[1][k], Bm[2][k])
    Tet t;
    t.g1 = dvec3(Bm[0][0], Bm[1][0], Bm[2][0]);
    t.g2 = dvec3(Bm[0][1], Bm[1][1], Bm[2][1]);
    t.g3 = dvec3(Bm[0][2], Bm[1][2], Bm[2][2]);
    t.volume = glm::determinant(Dm) / 6.0;
    std::uniform_real_distribution<double> u(-noise, noise);
    for (int k = 0; k < 4; ++k) t.x[k] = F * rest[k] + dvec3(u(rng), u(rng), u(rng));
    return t;
}

constexpr double kMu = 4e5, kLambda = 6e5;

double energy(uint32_t model, const Tet& t) {
    const dmat3 F = ref::tetDeformation(t.x[0], t.x[1], t.x[2], t.x[3], t.g1, t.g2, t.g3);
    return t.volume * ref::elasticEnergyDensity(model, F, kMu, kLambda);
}

ref::VbdTetTerms terms(uint32_t model, const Tet& t, uint32_t role) {
    const dmat3 F = ref::tetDeformation(t.x[0], t.x[1], t.x[2], t.x[3], t.g1, t.g2, t.g3);
    return ref::tetVertexTerms(model, F, ref::tetVertexRow(role, t.g1, t.g2, t.g3), t.volume, kMu, kLambda);
}

// d/dx_role of the energy and of the gradient, by central differences.
struct Differences {
    dvec3 gradient{0.0};
    dmat3 hessian{0.0};
};
Differences differences(uint32_t model, Tet t, uint32_t role, double eps) {
    Differences d;
    for (int k = 0; k < 3; ++k) {
        const dvec3 start = t.x[role];
        t.x[role][k] = start[k] + eps;
        const double ePlus = energy(model, t);
        const dvec3 gPlus = terms(model, t, role).gradient;
        t.x[role][k] = start[k] - eps;
        const double eMinus = energy(model, t);
        const dvec3 gMinus = terms(model, t, role).gradient;
        t.x[role] = start;
        d.gradient[k] = (ePlus - eMinus) / (2.0 * eps);
        d.hessian[k] = (gPlus - gMinus) / (2.0 * eps);  // column k
    }
    return d;
}

// The smallest eigenvalue of a symmetric 3x3 (the trigonometric closed form).
double smallestEigenvalue(const dmat3& m) {
    const double p1 = m[0][1] * m[0][1] + m[0][2] * m[0][2] + m[1][2] * m[1][2];
    const double q = (m[0][0] + m[1][1] + m[2][2]) / 3.0;
    const double p2 = (m[0][0] - q) * (m[0][0] - q) + (m[1][1] - q) * (m[1][1] - q) + (m[2][2] - q) * (m[2][2] - q) +
                      2.0 * p1;
    const double p = std::sqrt(p2 / 6.0);
    if (p == 0.0) return q;
    const dmat3 B = (1.0 / p) * (m - q * dmat3(1.0));
    const double r = std::clamp(glm::determinant(B) / 2.0, -1.0, 1.0);
    const double phi = std::acos(r) / 3.0;
    return q + 2.0 * p * std::cos(phi + 2.0 * M_PI / 3.0);
}

std::vector<dmat3> deformations(std::mt19937& rng) {
    std::uniform_real_distribution<double> u(-0.4, 0.4);
    std::vector<dmat3> Fs{dmat3(1.0), dmat3(1.3), dmat3(0.7)};
    for (int n = 0; n < 20; ++n) {
        dmat3 F(1.0);
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r) F[c][r] += u(rng);
        Fs.push_back(F);
    }
    // Inverted: a reflection through the x = 0 plane of a stretch.
    dmat3 inverted(1.1);
    inverted[0][0] = -0.8;
    Fs.push_back(inverted);
    return Fs;
}

TEST(VbdMath, NeoHookeanVertexGradientAndHessianMatchDifferences) {
    std::mt19937 rng(7);
    double worstGradient = 0.0, worstHessian = 0.0;
    for (const dmat3& F : deformations(rng)) {
        const Tet t = deformedTet(F, rng, 0.01);
        for (uint32_t role = 0; role < 4; ++role) {
            const ref::VbdTetTerms exact = terms(gpu::kElasticNeoHookean, t, role);
            const Differences fd = differences(gpu::kElasticNeoHookean, t, role, 1e-6);
            const double gScale = std::max(1.0, glm::length(exact.gradient));
            worstGradient = std::max(worstGradient, glm::length(exact.gradient - fd.gradient) / gScale);
            worstHessian = std::max(worstHessian, maxAbs(exact.hessian - fd.hessian) / maxAbs(exact.hessian));
            EXPECT_GE(smallestEigenvalue(exact.hessian), -1e-9 * maxAbs(exact.hessian)) << "role " << role;
        }
    }
    std::cout << fmt::format("[vbd] Neo-Hookean vs central differences: gradient {:.2e}, Hessian {:.2e} (relative)\n",
                             worstGradient, worstHessian);
    EXPECT_LT(worstGradient, 1e-6);
    // Psi restricted to one vertex is quadratic (J is affine in it), so the
    // differences of the gradient are exact up to rounding.
    EXPECT_LT(worstHessian, 1e-6);
}

TEST(VbdMath, CorotatedBlockHoldsTheRotationAndBoundsTheExactBlock) {
    std::mt19937 rng(11);
    double worstGradient = 0.0, worstBound = 0.0;
    for (const dmat3& F : deformations(rng)) {
        const Tet t = deformedTet(F, rng, 0.005);
        const dmat3 Fnow = ref::tetDeformation(t.x[0], t.x[1], t.x[2], t.x[3], t.g1, t.g2, t.g3);
        for (uint32_t role = 0; role < 4; ++role) {
            const ref::VbdTetTerms held = terms(gpu::kElasticCorotated, t, role);
            const Differences fd = differences(gpu::kElasticCorotated, t, role, 1e-7);
            const double gScale = std::max(1.0, glm::length(held.gradient));
            worstGradient = std::max(worstGradient, glm::length(held.gradient - fd.gradient) / gScale);
            const double scale = maxAbs(held.hessian);
            EXPECT_GE(smallestEigenvalue(held.hessian), -1e-9 * scale);
            // Where F is not inverted, dR/dF only lowers the exact block:
            // held - exact is positive semi-definite (up to the differences' error).
            if (glm::determinant(Fnow) > 0.0) {
                const dmat3 gap = held.hessian - 0.5 * (fd.hessian + glm::transpose(fd.hessian));
                worstBound = std::min(worstBound, smallestEigenvalue(gap) / scale);
            }
        }
    }
    std::cout << fmt::format("[vbd] corotated: gradient vs differences {:.2e}; smallest eigenvalue of held - exact "
                             "{:.2e} (relative)\n",
                             worstGradient, worstBound);
    EXPECT_LT(worstGradient, 1e-5);
    EXPECT_GT(worstBound, -1e-5);
}

}  // namespace
}  // namespace vksim::test
