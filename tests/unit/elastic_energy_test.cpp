// The elastic energies of the solids (math/elastic_energy.glsl, docs/physics.md
// §16) in double: rest stability, stresses and vertex Hessian blocks against
// finite differences, the small-strain limit against linear elasticity, and
// the Neo-Hookean uniaxial closed form.
#include <random>

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <glm/glm.hpp>

#include "geometry/shared_math.h"

namespace vksim {
namespace {

constexpr uint32_t kModels[] = {gpu::kElasticNeoHookean, gpu::kElasticCorotated};
const char* modelName(uint32_t model) { return model == gpu::kElasticNeoHookean ? "Neo-Hookean" : "corotated"; }

// Deformation gradients near and far from the identity, two inverted.
std::vector<glm::dmat3> sampleGradients() {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-0.6, 0.6);
    std::vector<glm::dmat3> Fs;
    for (int k = 0; k < 12; ++k) {
        glm::dmat3 F(1.0);
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r) F[c][r] += u(rng);
        Fs.push_back(F);
    }
    Fs.push_back(glm::dmat3(glm::dvec3(1.2, 0, 0), glm::dvec3(0, 0.9, 0), glm::dvec3(0, 0, -0.3)));  // inverted
    Fs.push_back(glm::dmat3(glm::dvec3(-0.5, 0.1, 0), glm::dvec3(0.2, 1.1, 0), glm::dvec3(0, 0.3, 0.8)));
    return Fs;
}

TEST(ElasticEnergy, LameParametersFromYoungAndPoisson) {
    const glm::dvec2 lame = ref::lameParameters(1e5, 0.3);
    EXPECT_NEAR(lame.x, 1e5 / 2.6, 1e-9);
    EXPECT_NEAR(lame.y, 1e5 * 0.3 / (1.3 * 0.4), 1e-9);
    EXPECT_EQ(ref::lameParameters(2e5, 0.0).y, 0.0);
}

TEST(ElasticEnergy, RestShapeHasNoEnergyAndNoStress) {
    for (uint32_t model : kModels) {
        EXPECT_NEAR(ref::elasticEnergyDensity(model, glm::dmat3(1.0), 3e4, 5e4), 0.0, 1e-9) << modelName(model);
        const glm::dmat3 P = ref::elasticStress(model, glm::dmat3(1.0), 3e4, 5e4);
        for (int c = 0; c < 3; ++c) EXPECT_LT(glm::length(P[c]), 1e-9) << modelName(model);
        // A rotation costs nothing either.
        const glm::dvec4 q = glm::normalize(glm::dvec4(0.3, -0.5, 0.2, 0.8));
        const glm::dmat3 R(ref::quatRotate(q, glm::dvec3(1, 0, 0)), ref::quatRotate(q, glm::dvec3(0, 1, 0)),
                           ref::quatRotate(q, glm::dvec3(0, 0, 1)));
        EXPECT_NEAR(ref::elasticEnergyDensity(model, R, 3e4, 5e4), 0.0, 1e-8) << modelName(model);
    }
}

// P = dPsi/dF by central differences, inverted elements included: the
// difference of step 1e-6 is exact to about 1e-9 of |P|.
TEST(ElasticEnergy, StressIsTheEnergysDerivative) {
    const double mu = 3e4, lambda = 5e4, step = 1e-6;
    double worst = 0.0;
    for (uint32_t model : kModels)
        for (const glm::dmat3& F : sampleGradients()) {
            const glm::dmat3 P = ref::elasticStress(model, F, mu, lambda);
            double scale = 1e-3;
            for (int c = 0; c < 3; ++c) scale = std::max(scale, glm::length(P[c]));
            for (int c = 0; c < 3; ++c)
                for (int r = 0; r < 3; ++r) {
                    glm::dmat3 plus = F, minus = F;
                    plus[c][r] += step;
                    minus[c][r] -= step;
                    const double fd = (ref::elasticEnergyDensity(model, plus, mu, lambda) -
                                       ref::elasticEnergyDensity(model, minus, mu, lambda)) / (2.0 * step);
                    worst = std::max(worst, std::abs(fd - P[c][r]) / scale);
                    EXPECT_NEAR(fd, P[c][r], 1e-6 * scale) << modelName(model) << " F[" << c << "][" << r << "]";
                }
        }
    std::cout << "largest relative difference of P from the energy's central differences: " << worst << "\n";
}

// For small strains eps, Psi(I + eps) = mu eps:eps + lambda/2 tr(eps)^2 +
// O(|eps|^3): both models are linear elasticity with (mu, lambda) there.
TEST(ElasticEnergy, SmallStrainsAreLinearElasticity) {
    const double mu = 3e4, lambda = 5e4, e = 1e-4;
    const glm::dmat3 S(glm::dvec3(0.7, 0.2, -0.1), glm::dvec3(0.2, -0.4, 0.3), glm::dvec3(-0.1, 0.3, 0.5));
    double ss = 0.0;
    for (int c = 0; c < 3; ++c) ss += glm::dot(S[c], S[c]);
    const double tr = S[0][0] + S[1][1] + S[2][2];
    const double linear = e * e * (mu * ss + 0.5 * lambda * tr * tr);
    for (uint32_t model : kModels) {
        const double psi = ref::elasticEnergyDensity(model, glm::dmat3(1.0) + e * S, mu, lambda);
        std::cout << modelName(model) << ": Psi(I + eps) / linear elasticity - 1 = " << psi / linear - 1.0 << "\n";
        EXPECT_NEAR(psi / linear, 1.0, 1e-3) << modelName(model);
    }
}

// The vertex block of elasticVertexHessian against central differences of
// the vertex's gradient P g: exact for Neo-Hookean; for corotated, whose
// block holds R fixed, the block minus the true one is positive semi-definite.
TEST(ElasticEnergy, VertexHessianBlocks) {
    const double mu = 3e4, lambda = 5e4, step = 1e-6;
    const glm::dvec3 g(0.8, -1.3, 0.4);
    for (uint32_t model : kModels)
        for (const glm::dmat3& F : sampleGradients()) {
            const glm::dmat3 block = ref::elasticVertexHessian(model, F, g, mu, lambda);
            Eigen::Matrix3d fd, held;
            for (int b = 0; b < 3; ++b) {
                // Moving the vertex by step e_b moves F by step e_b g^T.
                glm::dmat3 plus = F, minus = F;
                for (int c = 0; c < 3; ++c) {
                    plus[c][b] += step * g[c];
                    minus[c][b] -= step * g[c];
                }
                const glm::dvec3 d = (ref::elasticStress(model, plus, mu, lambda) * g -
                                      ref::elasticStress(model, minus, mu, lambda) * g) / (2.0 * step);
                for (int a = 0; a < 3; ++a) {
                    fd(a, b) = d[a];
                    held(a, b) = block[b][a];
                }
            }
            fd = 0.5 * (fd + fd.transpose());
            const double scale = held.norm();
            if (model == gpu::kElasticNeoHookean) {
                EXPECT_LT((held - fd).norm(), 1e-6 * scale) << "Neo-Hookean";
                EXPECT_GE(Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(held).eigenvalues().minCoeff(), -1e-9 * scale);
            } else {
                EXPECT_GE(Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(held - fd).eigenvalues().minCoeff(),
                          -1e-6 * scale)
                    << "corotated";
            }
        }
}

// Uniaxial stress of the stable Neo-Hookean energy: stretch s along x, the
// lateral stretch t that leaves P_22 = P_33 = 0 is
//   t^2 = (1 + mu (s - 1) / (lambdaHat s)) / s,
// and then P_11 = mu s - mu t^2 + lambdaHat (s t^2 - 1) t^2 (docs/physics.md §16).
TEST(ElasticEnergy, NeoHookeanUniaxialStressClosedForm) {
    const glm::dvec2 lame = ref::lameParameters(1e5, 0.3);
    const double mu = lame.x, lambdaHat = lame.y + lame.x;
    for (double s : {0.7, 1.1, 1.5, 2.0}) {
        const double t = std::sqrt((1.0 + mu * (s - 1.0) / (lambdaHat * s)) / s);
        const glm::dmat3 F(glm::dvec3(s, 0, 0), glm::dvec3(0, t, 0), glm::dvec3(0, 0, t));
        const glm::dmat3 P = ref::elasticStress(gpu::kElasticNeoHookean, F, lame.x, lame.y);
        EXPECT_NEAR(P[1][1], 0.0, 1e-9 * mu) << "s = " << s;
        EXPECT_NEAR(P[2][2], 0.0, 1e-9 * mu) << "s = " << s;
        EXPECT_NEAR(P[0][0], mu * s - mu * t * t + lambdaHat * (s * t * t - 1.0) * t * t, 1e-9 * mu) << "s = " << s;
    }
}

}  // namespace
}  // namespace vksim
