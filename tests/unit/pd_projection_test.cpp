// The local projections of projective dynamics (shaders/pd/pd_projections.glsl,
// compiled as C++ double through geometry/shared_math.h: the GPU runs the same
// functions in float): the 3x3 SVD on rotations, reflections and random
// matrices, and each projection against what it must produce.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include <fmt/format.h>

#include "cloth_scenes.h"
#include "geometry/shared_math.h"
#include "../common/matrix_norms.h"

namespace vksim {
namespace {

using test::maxAbs;

using glm::dmat3;
using glm::dvec3;

dmat3 rotation(dvec3 axis, double angle) {
    axis = glm::normalize(axis);
    const glm::dvec4 q(axis * std::sin(0.5 * angle), std::cos(0.5 * angle));
    return dmat3(ref::quatRotate(q, dvec3(1, 0, 0)), ref::quatRotate(q, dvec3(0, 1, 0)),
                 ref::quatRotate(q, dvec3(0, 0, 1)));
}

dmat3 randomMatrix(uint32_t seed) {
    dmat3 m;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) m[c][r] = test::hashUnit(seed * 9 + uint32_t(c * 3 + r), 11);
    return m;
}

// U, V rotations, S sorted by magnitude with only S.z negative, U S V^T = F.
void expectValidSvd(const dmat3& F, const ref::Svd3& d, double tolerance) {
    EXPECT_NEAR(glm::determinant(d.U), 1.0, tolerance);
    EXPECT_NEAR(glm::determinant(d.V), 1.0, tolerance);
    EXPECT_LT(maxAbs(glm::transpose(d.U) * d.U - dmat3(1.0)), tolerance);
    EXPECT_LT(maxAbs(glm::transpose(d.V) * d.V - dmat3(1.0)), tolerance);
    EXPECT_GE(d.S.x, std::abs(d.S.y) - tolerance);
    EXPECT_GE(d.S.y, std::abs(d.S.z) - tolerance);
    EXPECT_GE(d.S.y, 0.0);
    EXPECT_EQ(d.S.z < 0.0, glm::determinant(F) < 0.0) << "det F = " << glm::determinant(F);
    EXPECT_LT(maxAbs(ref::svd3Compose(d.U, d.S, d.V) - F), tolerance * std::max(1.0, maxAbs(F)));
}

TEST(PdProjections, SvdOfRotationsIsIdentitySingularValues) {
    for (uint32_t i = 0; i < 50; ++i) {
        const dvec3 axis(test::hashUnit(i, 1), test::hashUnit(i, 2), test::hashUnit(i, 3) + 1.5);
        const dmat3 R = rotation(axis, 3.0 * test::hashUnit(i, 4));
        const ref::Svd3 d = ref::svd3(R);
        expectValidSvd(R, d, 1e-12);
        EXPECT_NEAR(d.S.x, 1.0, 1e-12);
        EXPECT_NEAR(d.S.y, 1.0, 1e-12);
        EXPECT_NEAR(d.S.z, 1.0, 1e-12);
        EXPECT_LT(maxAbs(d.U * glm::transpose(d.V) - R), 1e-12);
    }
}

// A reflection (det -1) keeps U and V rotations: the smallest singular value
// carries the sign, as docs/physics.md §5 asks for inverted tetrahedra.
TEST(PdProjections, SvdOfReflectionsPutsTheSignOnTheSmallestValue) {
    for (uint32_t i = 0; i < 50; ++i) {
        const dmat3 R = rotation(dvec3(test::hashUnit(i, 5), 1.0, test::hashUnit(i, 6)), 2.0 * test::hashUnit(i, 7));
        const dmat3 mirror(dvec3(1, 0, 0), dvec3(0, 1, 0), dvec3(0, 0, -1));
        const dmat3 scale(dvec3(2.0, 0, 0), dvec3(0, 1.5, 0), dvec3(0, 0, 0.5));
        const dmat3 F = R * mirror * scale * glm::transpose(rotation(dvec3(1, 2, 3), 0.1 * i));
        const ref::Svd3 d = ref::svd3(F);
        expectValidSvd(F, d, 1e-12);
        EXPECT_NEAR(d.S.x, 2.0, 1e-12);
        EXPECT_NEAR(d.S.y, 1.5, 1e-12);
        EXPECT_NEAR(d.S.z, -0.5, 1e-12);
    }
}

TEST(PdProjections, SvdOfRandomAndDegenerateMatrices) {
    for (uint32_t i = 0; i < 200; ++i) expectValidSvd(randomMatrix(i), ref::svd3(randomMatrix(i)), 1e-11);
    // Rank 2, rank 1, zero, repeated singular values.
    const dmat3 flat(dvec3(1, 0, 0), dvec3(0, 1, 0), dvec3(1, 1, 0));
    const dmat3 line(dvec3(1, 2, 3), dvec3(2, 4, 6), dvec3(-1, -2, -3));
    const dmat3 cases[] = {flat, line, dmat3(0.0), dmat3(2.0), rotation(dvec3(0, 0, 1), 0.5) * 3.0};
    for (const dmat3& F : cases) {
        const ref::Svd3 d = ref::svd3(F);
        EXPECT_LT(maxAbs(ref::svd3Compose(d.U, d.S, d.V) - F), 1e-12);
        EXPECT_NEAR(glm::determinant(d.U), 1.0, 1e-12);
        EXPECT_NEAR(glm::determinant(d.V), 1.0, 1e-12);
    }
}

// With sigmaMin = sigmaMax = 1 the strain target of a rigidly moved element
// is its deformation gradient itself (the rest shape is reproduced); of a
// stretched one, the rotation part; an inverted one becomes a rotation.
TEST(PdProjections, TetStrainReproducesTheRestShape) {
    for (uint32_t i = 0; i < 20; ++i) {
        const dmat3 R = rotation(dvec3(test::hashUnit(i, 8), test::hashUnit(i, 9), 1.0), 2.5 * test::hashUnit(i, 10));
        EXPECT_LT(maxAbs(ref::pdTetStrainTarget(R, 1.0, 1.0) - R), 1e-12);
        const dmat3 stretch(dvec3(1.3, 0.1, 0), dvec3(0.1, 0.8, 0), dvec3(0, 0, 1.1));
        EXPECT_LT(maxAbs(ref::pdTetStrainTarget(R * stretch, 1.0, 1.0) - R), 1e-12);  // stretch is symmetric PD
        // Within the range nothing changes.
        EXPECT_LT(maxAbs(ref::pdTetStrainTarget(R * stretch, 0.5, 2.0) - R * stretch), 1e-12);
        // Inverted: the projection is a proper rotation (det +1).
        const dmat3 inverted = R * dmat3(dvec3(1, 0, 0), dvec3(0, 1, 0), dvec3(0, 0, -0.3));
        const dmat3 T = ref::pdTetStrainTarget(inverted, 1.0, 1.0);
        EXPECT_NEAR(glm::determinant(T), 1.0, 1e-12);
        EXPECT_LT(maxAbs(glm::transpose(T) * T - dmat3(1.0)), 1e-12);
    }
}

TEST(PdProjections, TetStrainClampsSingularValues) {
    const dmat3 R = rotation(dvec3(1, 1, 0), 0.7);
    const dmat3 F = R * dmat3(dvec3(1.5, 0, 0), dvec3(0, 0.6, 0), dvec3(0, 0, 1.0));
    const ref::Svd3 d = ref::svd3(ref::pdTetStrainTarget(F, 0.9, 1.1));
    EXPECT_NEAR(d.S.x, 1.1, 1e-12);
    EXPECT_NEAR(d.S.y, 1.0, 1e-12);
    EXPECT_NEAR(d.S.z, 0.9, 1e-12);
}

// The volume projection hits the clamped volume ratio (det T) and leaves
// elements already in range alone.
TEST(PdProjections, TetVolumeHitsTheTargetVolume) {
    double worst = 0.0;
    for (uint32_t i = 0; i < 100; ++i) {
        dmat3 F = randomMatrix(i + 1000) * 0.5 + dmat3(1.0);
        const double det = glm::determinant(F);
        for (const auto& [lo, hi] : {std::pair{1.0, 1.0}, std::pair{0.95, 1.05}, std::pair{0.5, 0.7}}) {
            const dmat3 T = ref::pdTetVolumeTarget(F, lo, hi);
            const double target = std::clamp(det, lo, hi);
            worst = std::max(worst, std::abs(glm::determinant(T) - target));
            EXPECT_NEAR(glm::determinant(T), target, 1e-12) << "det F = " << det;
            if (det >= lo && det <= hi) {
                EXPECT_EQ(maxAbs(T - F), 0.0);
            }
        }
    }
    std::cout << fmt::format("[pd projections] volume projection: worst |det T - target| = {:.2e} over 300 cases\n",
                             worst);
    // Inverted element: back to the target volume with a positive orientation.
    const dmat3 inverted(dvec3(1, 0, 0), dvec3(0, 1, 0), dvec3(0, 0, -0.5));
    EXPECT_NEAR(glm::determinant(ref::pdTetVolumeTarget(inverted, 1.0, 1.0)), 1.0, 1e-12);
}

TEST(PdProjections, TriangleStrainReproducesRestAndClamps) {
    // A rest triangle in its 2D frame, moved rigidly in 3D: F is the first
    // two columns of a rotation, and the target equals F.
    const dmat3 R = rotation(dvec3(0.3, 1, -0.2), 1.1);
    const ref::Columns32 F{R[0], R[1]};
    const ref::Columns32 T = ref::pdTriangleStrainTarget(F, 1.0, 1.0);
    EXPECT_LT(glm::length(T.c0 - F.c0) + glm::length(T.c1 - F.c1), 1e-12);
    // Stretched 1.5x along the first axis and 0.5x along the second:
    // clamping to [0.9, 1.1] gives 1.1 and 0.9 along the same directions.
    const ref::Columns32 G{1.5 * R[0], 0.5 * R[1]};
    const ref::Columns32 C = ref::pdTriangleStrainTarget(G, 0.9, 1.1);
    EXPECT_LT(glm::length(C.c0 - 1.1 * R[0]) + glm::length(C.c1 - 0.9 * R[1]), 1e-12);
    // A sheared one: the target's columns are orthonormal when the range is [1, 1].
    const ref::Columns32 S{dvec3(1, 0, 0.2), dvec3(0.4, 1.2, 0)};
    const ref::Columns32 U = ref::pdTriangleStrainTarget(S, 1.0, 1.0);
    EXPECT_NEAR(glm::length(U.c0), 1.0, 1e-12);
    EXPECT_NEAR(glm::length(U.c1), 1.0, 1e-12);
    EXPECT_NEAR(glm::dot(U.c0, U.c1), 0.0, 1e-12);
}

TEST(PdProjections, SpringAndBendingTargets) {
    const dvec3 d(0.3, -0.4, 1.2);
    const dvec3 p = ref::pdSpringTarget(d, 0.5);
    EXPECT_NEAR(glm::length(p), 0.5, 1e-15);
    EXPECT_NEAR(glm::dot(glm::normalize(p), glm::normalize(d)), 1.0, 1e-15);
    EXPECT_EQ(ref::pdSpringTarget(dvec3(0.0), 0.5), dvec3(0.0));
    // Flat rest shape: the bending target is zero; curved: |p| = |v_g| along v_f.
    EXPECT_EQ(ref::pdBendingTarget(d, 0.0), dvec3(0.0));
    EXPECT_NEAR(glm::length(ref::pdBendingTarget(d, 2.0)), 2.0, 1e-15);
}

TEST(PdProjections, ChebyshevUpdateReducesToJacobi) {
    const dvec3 jacobi(1, 2, 3), current(0.5, 0.5, 0.5), previous(7, 8, 9);
    EXPECT_EQ(ref::chebyshevJacobiUpdate(jacobi, current, previous, 1.0, 1.0), jacobi);
    const dvec3 relaxed = ref::chebyshevJacobiUpdate(jacobi, current, previous, 1.0, 0.5);
    EXPECT_LT(glm::length(relaxed - 0.5 * (jacobi + current)), 1e-15);
}

}  // namespace
}  // namespace vksim
