// Tetrahedral meshes, the projective dynamics part of the model builder and
// the global system of docs/physics.md §5: orientation and closedness of the meshes,
// errors for inverted or degenerate elements, the assembled matrix (symmetric,
// rows summing to zero, positive semi-definite), the contribution slots and
// the spectral radius estimate against a dense eigen-decomposition.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <map>
#include <set>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "geometry/tet_mesh.h"
#include "pd_scenes.h"
#include "solvers/model_builder.h"
#include "solvers/pd/pd_system.h"

namespace vksim {
namespace {

double meshVolume(const TetMesh& mesh) {
    double v = 0.0;
    for (const glm::uvec4& t : mesh.tets)
        v += tetVolume(mesh.positions[t.x], mesh.positions[t.y], mesh.positions[t.z], mesh.positions[t.w]);
    return v;
}

// Every edge of the surface is used by exactly two triangles, once in each
// direction (closed and consistently oriented), and the surface encloses
// the mesh's volume with outward normals (divergence theorem).
void expectClosedOutwardSurface(const TetMesh& mesh) {
    std::map<std::pair<uint32_t, uint32_t>, int> directed;
    double enclosed = 0.0;
    for (size_t t = 0; t < mesh.surface.size(); t += 3) {
        const uint32_t a = mesh.surface[t], b = mesh.surface[t + 1], c = mesh.surface[t + 2];
        ++directed[{a, b}];
        ++directed[{b, c}];
        ++directed[{c, a}];
        enclosed += glm::dot(mesh.positions[a], glm::cross(mesh.positions[b], mesh.positions[c])) / 6.0;
    }
    for (const auto& [edge, count] : directed) {
        EXPECT_EQ(count, 1) << "edge " << edge.first << "-" << edge.second;
        EXPECT_EQ(directed.count({edge.second, edge.first}), 1u) << "edge " << edge.first << "-" << edge.second;
    }
    EXPECT_NEAR(enclosed, meshVolume(mesh), 1e-12 * std::max(1.0, meshVolume(mesh)));
}

TEST(TetMesh, BoxIsPositiveConformingAndClosed) {
    const TetMesh mesh = buildTetBox({2.0, 0.5, 0.25}, {4, 2, 1});
    EXPECT_EQ(mesh.positions.size(), 5u * 3u * 2u);
    EXPECT_EQ(mesh.tets.size(), 6u * 8u);
    for (const glm::uvec4& t : mesh.tets)
        EXPECT_GT(tetVolume(mesh.positions[t.x], mesh.positions[t.y], mesh.positions[t.z], mesh.positions[t.w]), 0.0);
    EXPECT_NEAR(meshVolume(mesh), 2.0 * 0.5 * 0.25, 1e-12);
    // Surface: 2 triangles per boundary cell face.
    EXPECT_EQ(mesh.surface.size() / 3, 2u * 2u * (4 * 2 + 4 * 1 + 2 * 1));
    expectClosedOutwardSurface(mesh);
    EXPECT_NO_THROW(validateTets(mesh.positions, mesh.tets, "box"));
    double lumped = 0.0;
    for (double m : lumpedTetMasses(mesh.positions, mesh.tets, 3.0)) lumped += m;
    EXPECT_NEAR(lumped, 3.0, 1e-12);
}

TEST(TetMesh, BallIsPositiveClosedAndRound) {
    const TetMesh mesh = buildTetBall(0.5, 6);
    for (const glm::uvec4& t : mesh.tets)
        EXPECT_GT(tetVolume(mesh.positions[t.x], mesh.positions[t.y], mesh.positions[t.z], mesh.positions[t.w]), 0.0);
    expectClosedOutwardSurface(mesh);
    EXPECT_NO_THROW(validateTets(mesh.positions, mesh.tets, "ball"));
    size_t onSphere = 0;
    std::set<uint32_t> surfaceVertices(mesh.surface.begin(), mesh.surface.end());
    for (uint32_t v : surfaceVertices) onSphere += std::abs(glm::length(mesh.positions[v]) - 0.5) < 1e-12 ? 1 : 0;
    const double volume = meshVolume(mesh), sphere = 4.0 / 3.0 * M_PI * 0.125;
    std::cout << fmt::format("[tet mesh] ball 6 cells across: {} vertices, {} tets, {} of {} surface vertices on "
                             "the sphere, volume {:.4f} (sphere {:.4f})\n",
                             mesh.positions.size(), mesh.tets.size(), onSphere, surfaceVertices.size(), volume,
                             sphere);
    EXPECT_EQ(onSphere, surfaceVertices.size());
    EXPECT_NEAR(volume, sphere, 0.05 * sphere);
}

TEST(TetMesh, InvertedAndDegenerateElementsAreErrorsNamingTheElement) {
    const std::vector<glm::dvec3> x = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}};
    const std::vector<glm::uvec4> good = {{0, 1, 2, 3}};
    EXPECT_NO_THROW(validateTets(x, good, "solid 's'"));
    auto messageOf = [&](const std::vector<glm::uvec4>& tets) {
        try {
            validateTets(x, tets, "solid 's'");
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const std::string inverted = messageOf({{0, 1, 2, 3}, {0, 2, 1, 3}});
    EXPECT_NE(inverted.find("solid 's': tetrahedron 1"), std::string::npos) << inverted;
    EXPECT_NE(inverted.find("inverted"), std::string::npos) << inverted;
    const std::string flat = messageOf({{0, 1, 2, 4}});
    EXPECT_NE(flat.find("tetrahedron 0"), std::string::npos) << flat;
    EXPECT_NE(flat.find("degenerate"), std::string::npos) << flat;
    const std::string outOfRange = messageOf({{0, 1, 2, 9}});
    EXPECT_NE(outOfRange.find("vertex 9"), std::string::npos) << outOfRange;
}

TEST(PdModel, BarModelHasPdParticlesAfterPbdOnes) {
    Scene scene = test::pdBarScene();
    ClothObject pbdCloth;
    pbdCloth.name = "pbd";
    pbdCloth.grid.resolution = {4, 4};
    scene.cloths.push_back(pbdCloth);
    const SimModel model = buildModel(scene);
    EXPECT_EQ(model.pbd.particleCount, 16u);
    EXPECT_EQ(model.pd.firstParticle, 16u);
    EXPECT_EQ(model.pd.particleCount, 7u * 3u * 3u);
    EXPECT_EQ(model.pd.tetStrain.size(), 6u * 6u * 2u * 2u);
    ASSERT_EQ(model.objects.size(), 2u);
    EXPECT_EQ(model.objects[0].name, "pbd");
    EXPECT_EQ(model.objects[1].name, "bar");
    // PBD constraints touch only PBD particles.
    for (const auto& c : model.pbd.distance) EXPECT_LT(std::max(c.p0, c.p1), 16u);
    // The -X face (3 x 3 vertices) is pinned: inverse mass 0, row mass 0.
    uint32_t pinned = 0;
    for (uint32_t r = 0; r < model.pd.particleCount; ++r) {
        const bool hard = model.positions[model.pd.firstParticle + r].w == 0.0f;
        EXPECT_EQ(hard, model.pd.rows[r].mass == 0.0f);
        pinned += hard ? 1 : 0;
    }
    EXPECT_EQ(pinned, 9u);
    // Masses lumped by volume: the free particles carry the 10 kg less the
    // pinned face's share (its 9 vertices hold between 1/28 and 1/7 of it).
    double total = 0.0;
    for (const gpu::PdRow& row : model.pd.rows) total += row.mass;
    EXPECT_LT(total, 10.0 * (1.0 - 1.0 / 28.0) + 1e-4);
    EXPECT_GT(total, 10.0 * (1.0 - 1.0 / 7.0));
    // Rest shape: F = I for every element.
    for (const gpu::PdTetrahedron& t : model.pd.tetStrain) {
        glm::dvec3 x[4];
        for (int k = 0; k < 4; ++k) x[k] = glm::dvec3(glm::vec3(model.positions[t.particles[k]]));
        const glm::dvec3 g1(glm::vec3(t.g1)), g2(glm::vec3(t.g2)), g3(glm::vec3(t.g3));
        const glm::dmat3 F = glm::outerProduct(x[1] - x[0], g1) + glm::outerProduct(x[2] - x[0], g2) +
                             glm::outerProduct(x[3] - x[0], g3);
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r) EXPECT_NEAR(F[c][r], c == r ? 1.0 : 0.0, 1e-5);
        EXPECT_GT(t.weight, 0.0f);
    }
}

// L is symmetric, its rows sum to zero (every element is translation
// invariant except attachments) and it is positive semi-definite.
TEST(PdModel, SystemMatrixIsSymmetricTranslationInvariantAndSemiDefinite) {
    for (const Scene& scene : {test::pdBarScene({3, 1, 1}), test::pdClothScene({5, 4})}) {
        SimModel model = buildModel(scene);
        const auto L = densePdLaplacian(model.pd);
        const auto n = static_cast<Eigen::Index>(L.size());
        Eigen::MatrixXd A(n, n);
        for (Eigen::Index i = 0; i < n; ++i)
            for (Eigen::Index j = 0; j < n; ++j) A(i, j) = L[size_t(i)][size_t(j)];
        EXPECT_EQ((A - A.transpose()).cwiseAbs().maxCoeff(), 0.0) << scene.name;
        const double scale = A.cwiseAbs().maxCoeff();
        EXPECT_LT(A.rowwise().sum().cwiseAbs().maxCoeff(), 1e-5 * scale) << scene.name;
        const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(A);
        EXPECT_GT(eigen.eigenvalues().minCoeff(), -1e-6 * scale) << scene.name;
        // Every element slot is gathered by exactly one particle.
        std::vector<int> gathered(model.pd.slots.total, 0);
        for (uint32_t slot : model.pd.gatherSlots) ++gathered[slot];
        for (int count : gathered) EXPECT_EQ(count, 1);
    }
}

TEST(PdModel, PdClothHasSpringsTrianglesBendingAndAttachments) {
    Scene scene = test::pdClothScene({5, 4});
    scene.cloths[0].pinsAsAttachments = true;
    const SimModel model = buildModel(scene);
    EXPECT_EQ(model.pbd.particleCount, 0u);
    EXPECT_EQ(model.pd.springs.size(), 4u * 4 + 5u * 3 + 2u * 4 * 3);
    EXPECT_EQ(model.pd.triangles.size(), 2u * 4 * 3);
    EXPECT_EQ(model.pd.bending.size(), 3u * 4 * 3 - 4 - 3);  // interior edges
    EXPECT_EQ(model.pd.attachments.size(), 2u);
    EXPECT_TRUE(model.pbd.distance.empty());
    for (const gpu::PdBending& b : model.pd.bending) EXPECT_LT(b.restNorm, 1e-6f);
    for (const gpu::PdTriangle& t : model.pd.triangles) EXPECT_NEAR(t.weight, 50.0f * 0.5f / 12.0f, 1e-5f);
}

TEST(PdModel, DegenerateClothTriangleIsAnErrorNamingIt) {
    Scene scene = test::pdClothScene({3, 3});
    scene.cloths[0].grid.size = {1.0f, 1e-14f};
    try {
        buildModel(scene);
        FAIL() << "expected an error";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("cloth 'cloth': triangle 0"), std::string::npos) << e.what();
    }
}

// The Lanczos estimate of D^-1 A's extreme eigenvalues against a dense
// eigen-decomposition of the same (free-particle) matrix.
TEST(PdModel, SpectralRadiusEstimateMatchesDenseEigenvalues) {
    for (const Scene& scene : {test::pdBarScene({4, 2, 2}), test::pdClothScene({8, 8})}) {
        const SimModel model = buildModel(scene);
        const double h = 1.0 / 60.0;
        const auto L = densePdLaplacian(model.pd);
        std::vector<uint32_t> free;
        for (uint32_t r = 0; r < model.pd.particleCount; ++r)
            if (model.pd.rows[r].mass > 0.0f) free.push_back(r);
        const auto n = static_cast<Eigen::Index>(free.size());
        Eigen::MatrixXd N(n, n);
        for (Eigen::Index i = 0; i < n; ++i)
            for (Eigen::Index j = 0; j < n; ++j) {
                const uint32_t a = free[size_t(i)], b = free[size_t(j)];
                double Aij = L[a][b] + (a == b ? double(model.pd.rows[a].mass) / (h * h) : 0.0);
                double Di = L[a][a] + double(model.pd.rows[a].mass) / (h * h);
                double Dj = L[b][b] + double(model.pd.rows[b].mass) / (h * h);
                N(i, j) = Aij / std::sqrt(Di * Dj);
            }
        const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> dense(N, Eigen::EigenvaluesOnly);
        const JacobiSpectrum estimate = estimateJacobiSpectrum(model.pd, h);
        const double gamma = 0.9;
        const double exactRho = std::max(std::abs(1 - gamma * dense.eigenvalues().minCoeff()),
                                         std::abs(1 - gamma * dense.eigenvalues().maxCoeff()));
        const double rho = relaxedJacobiSpectralRadius(estimate, gamma);
        std::cout << fmt::format("[pd system] {}: {} free particles, mu in [{:.6f}, {:.6f}] (dense [{:.6f}, {:.6f}]), "
                                 "rho(gamma 0.9) {:.6f} (dense {:.6f})\n",
                                 scene.name, n, estimate.muMin, estimate.muMax, dense.eigenvalues().minCoeff(),
                                 dense.eigenvalues().maxCoeff(), rho, exactRho);
        EXPECT_NEAR(estimate.muMax, dense.eigenvalues().maxCoeff(), 1e-6);
        EXPECT_NEAR(estimate.muMin, dense.eigenvalues().minCoeff(), 1e-6);
        EXPECT_NEAR(rho, exactRho, 1e-6);
    }
}

TEST(PdModel, ChebyshevOmegasFollowWang2015) {
    const std::vector<float> plain = chebyshevOmegas(0.9, 4, false);
    for (float w : plain) EXPECT_EQ(w, 1.0f);
    const std::vector<float> w = chebyshevOmegas(0.9, 50, true);
    EXPECT_EQ(w[0], 1.0f);
    EXPECT_FLOAT_EQ(w[1], float(2.0 / (2.0 - 0.81)));
    EXPECT_FLOAT_EQ(w[2], float(4.0 / (4.0 - 0.81 * (2.0 / (2.0 - 0.81)))));
    // The limit is 2 / (1 + sqrt(1 - rho^2)).
    EXPECT_NEAR(w.back(), 2.0 / (1.0 + std::sqrt(1.0 - 0.81)), 1e-6);
}

}  // namespace
}  // namespace vksim
