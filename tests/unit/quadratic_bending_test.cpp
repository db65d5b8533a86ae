// Bergou's quadratic bending (geometry/quadratic_bending.h) as the builder
// stores it: symmetric, rows summing to zero (a translation feels no force),
// blind to every linear field on a flat cloth (Q x = 0), positive
// semi-definite; degenerate triangles skipped and counted. The errors are
// printed so a regression shows how far it is off.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include <Eigen/Dense>

#include "../common/mesh_fixtures.h"
#include "geometry/quadratic_bending.h"
#include "spring_scenes.h"

namespace vksim {
namespace {

// The stored Q (unit values, without the stiffness) as a dense matrix over the range.
Eigen::MatrixXd denseUnit(const MsModel& ms) {
    Eigen::MatrixXd Q = Eigen::MatrixXd::Zero(ms.particleCount, ms.particleCount);
    for (size_t e = 0; e < ms.quadratic.size(); ++e)
        Q(ms.quadraticRows[e] - ms.firstParticle, ms.quadratic[e].column - ms.firstParticle) += ms.quadraticUnit[e];
    return Q;
}

// The float values k Q as the GPU gets them.
Eigen::MatrixXd denseValues(const MsModel& ms) {
    Eigen::MatrixXd Q = Eigen::MatrixXd::Zero(ms.particleCount, ms.particleCount);
    for (size_t e = 0; e < ms.quadratic.size(); ++e)
        Q(ms.quadraticRows[e] - ms.firstParticle, ms.quadratic[e].column - ms.firstParticle) +=
            double(ms.quadratic[e].value);
    return Q;
}

// A flat, irregular cloth: a grid in a tilted plane with its vertices moved
// within the plane (cotangent weights all different), far from the origin.
struct FlatCloth {
    std::vector<glm::dvec3> rest;
    std::vector<uint32_t> triangles;
    glm::dvec3 u, v;  // the plane's axes
};

FlatCloth flatCloth(uint32_t columns, uint32_t rows) {
    FlatCloth cloth;
    cloth.u = glm::normalize(glm::dvec3(1.0, 0.3, -0.2));
    cloth.v = glm::normalize(glm::cross(cloth.u, glm::dvec3(0.1, 1.0, 0.4)));
    const glm::dvec3 origin(12.0, -3.0, 7.0);
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < columns; ++c) {
            const uint32_t i = r * columns + c;
            const double a = 0.1 * (c + 0.3 * test::hashUnit(i, 1)), b = 0.1 * (r + 0.3 * test::hashUnit(i, 2));
            cloth.rest.push_back(origin + a * cloth.u + b * cloth.v);
        }
    for (uint32_t r = 0; r + 1 < rows; ++r)
        for (uint32_t c = 0; c + 1 < columns; ++c) {
            const uint32_t a = r * columns + c, b = a + 1, d = a + columns, e = d + 1;
            cloth.triangles.insert(cloth.triangles.end(), {a, d, b, b, d, e});
        }
    return cloth;
}

struct QErrors {
    double scale = 0.0;      // largest |Q_ij|
    double asymmetry = 0.0;  // largest |Q_ij - Q_ji|
    double rowSum = 0.0;     // largest |sum_j Q_ij|
    double minEigen = 0.0;   // smallest eigenvalue
};

QErrors errorsOf(const Eigen::MatrixXd& Q) {
    QErrors e;
    e.scale = Q.cwiseAbs().maxCoeff();
    e.asymmetry = (Q - Q.transpose()).cwiseAbs().maxCoeff();
    e.rowSum = Q.rowwise().sum().cwiseAbs().maxCoeff();
    e.minEigen = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(0.5 * (Q + Q.transpose())).eigenvalues().minCoeff();
    return e;
}

TEST(QuadraticBending, FlatClothMatrixProperties) {
    const FlatCloth cloth = flatCloth(7, 6);
    const MsModel ms = test::springObject(cloth.rest, cloth.triangles,
                                          {.topology = SpringTopology::Mesh,
                                           .bending = SpringBending::Quadratic,
                                           .bendingStiffness = 0.5f});
    ASSERT_EQ(ms.objects[0].counts.degenerateQuadratic, 0u);
    const Eigen::MatrixXd Q = denseUnit(ms);
    const QErrors e = errorsOf(Q);
    std::cout << "unit Q: max |Q| " << e.scale << ", asymmetry " << e.asymmetry << ", max |row sum| " << e.rowSum
              << ", min eigenvalue " << e.minEigen << "\n";
    EXPECT_EQ(e.asymmetry, 0.0);  // the same terms in the same order
    EXPECT_LT(e.rowSum, 1e-12 * e.scale);
    EXPECT_GT(e.minEigen, -1e-10 * e.scale);

    // Q x = 0 for every linear field over the plane: the coordinates of the
    // rest positions themselves (x, y, z) and a + b u-coordinate + c v-coordinate.
    double linearError = 0.0, positionScale = 0.0;
    for (int axis = 0; axis < 3; ++axis) {
        Eigen::VectorXd x(ms.particleCount);
        for (uint32_t i = 0; i < ms.particleCount; ++i) x[i] = cloth.rest[i][axis];
        linearError = std::max(linearError, (Q * x).cwiseAbs().maxCoeff());
        positionScale = std::max(positionScale, x.cwiseAbs().maxCoeff());
    }
    Eigen::VectorXd field(ms.particleCount);
    for (uint32_t i = 0; i < ms.particleCount; ++i)
        field[i] = 2.0 - 3.0 * glm::dot(cloth.rest[i], cloth.u) + 0.7 * glm::dot(cloth.rest[i], cloth.v);
    linearError = std::max(linearError, (Q * field).cwiseAbs().maxCoeff());
    std::cout << "max |Q x| for linear fields " << linearError << " (|Q| |x| = " << e.scale * positionScale << ")\n";
    // K is rounded to float so that it sums to exactly zero: relative 2^-22.
    EXPECT_LT(linearError, 1e-5 * e.scale * positionScale);

    // A bent field is felt: f = a^2 + b^2 (a, b the in-plane coordinates)
    // has Laplacian 4, so its continuous energy int (Laplacian f)^2 dA is
    // 16 x the area (about 0.6 m x 0.5 m); the discrete one is of that order.
    Eigen::VectorXd bent(ms.particleCount);
    for (uint32_t i = 0; i < ms.particleCount; ++i) {
        const double a = glm::dot(cloth.rest[i], cloth.u), b = glm::dot(cloth.rest[i], cloth.v);
        bent[i] = a * a + b * b;
    }
    const double continuous = 16.0 * 0.6 * 0.5;
    std::cout << "x^T Q x of the paraboloid " << bent.dot(Q * bent) << " (continuous " << continuous << ")\n";
    EXPECT_GT(bent.dot(Q * bent), 0.1 * continuous);
    EXPECT_LT(bent.dot(Q * bent), 10.0 * continuous);

    // The float values with the stiffness: symmetric and rows summing to
    // zero up to a float rounding of the diagonal.
    const QErrors f = errorsOf(denseValues(ms));
    std::cout << "k Q in float: max " << f.scale << ", asymmetry " << f.asymmetry << ", max |row sum| " << f.rowSum
              << ", min eigenvalue " << f.minEigen << "\n";
    EXPECT_EQ(f.asymmetry, 0.0);
    EXPECT_LT(f.rowSum, 1e-6 * f.scale);
    EXPECT_NEAR(f.scale, 0.5 * e.scale, 1e-6 * e.scale);
}

TEST(QuadraticBending, CurvedMeshStaysSymmetricAndSemiDefinite) {
    const test::Icosphere sphere = test::makeIcosphere(0.5, 1);
    const std::vector<uint32_t> triangles = test::flatten(sphere.triangles);
    const MsModel ms = test::springObject(sphere.positions, triangles,
                                          {.topology = SpringTopology::Mesh, .bending = SpringBending::Quadratic});
    const QErrors e = errorsOf(denseUnit(ms));
    std::cout << "icosphere Q: max " << e.scale << ", asymmetry " << e.asymmetry << ", row sum " << e.rowSum
              << ", min eigenvalue " << e.minEigen << "\n";
    EXPECT_EQ(e.asymmetry, 0.0);
    EXPECT_LT(e.rowSum, 1e-12 * e.scale);
    EXPECT_GT(e.minEigen, -1e-10 * e.scale);
}

// Every row holds its diagonal and the other three vertices of each of its
// stencils, columns ascending.
TEST(QuadraticBending, RowsHoldTheWholeStencil) {
    const FlatCloth cloth = flatCloth(4, 4);
    const MsModel ms = test::springObject(cloth.rest, cloth.triangles, {.topology = SpringTopology::Mesh});
    for (const gpu::MsHinge& h : ms.hinges)
        for (uint32_t row : {h.v0, h.v1, h.v2, h.v3}) {
            const gpu::MsParticle& p = ms.particles[row];
            for (uint32_t column : {h.v0, h.v1, h.v2, h.v3}) {
                const auto begin = ms.quadratic.begin() + p.firstQuadratic;
                const auto end = begin + p.quadraticCount;
                EXPECT_TRUE(std::any_of(begin, end, [&](const gpu::MsQuadraticEntry& q) { return q.column == column; }))
                    << "row " << row << " lacks column " << column;
            }
        }
    for (size_t e = 1; e < ms.quadratic.size(); ++e)
        if (ms.quadraticRows[e] == ms.quadraticRows[e - 1]) {
            EXPECT_LT(ms.quadratic[e - 1].column, ms.quadratic[e].column);
        }
}

TEST(QuadraticBending, DegenerateTrianglesAreSkippedAndCounted) {
    // A square split in two, plus a sliver: vertex 4 on the edge (1, 2).
    const std::vector<glm::dvec3> rest = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {1, 0.5, 0}};
    const std::vector<uint32_t> triangles = {0, 1, 3, 1, 2, 3, 1, 4, 2};
    const QuadraticBending q = buildQuadraticBending(
        rest, std::vector<glm::uvec4>{{1, 3, 0, 2}, {2, 1, 3, 4}});  // the second's wing (2, 1, 4) has no area
    EXPECT_EQ(q.degenerate, 1u);
    EXPECT_EQ(q.entries.size(), 16u);
    for (const QuadraticTerm& t : q.entries) EXPECT_TRUE(std::isfinite(t.unit));

    const MsModel ms = test::springObject(rest, triangles, {.topology = SpringTopology::Mesh});
    EXPECT_EQ(ms.objects[0].counts.degenerateQuadratic, 1u);
    EXPECT_EQ(ms.objects[0].counts.hinges, 2u);  // the hinge stays (its force vanishes on its own)
}

}  // namespace
}  // namespace vksim
