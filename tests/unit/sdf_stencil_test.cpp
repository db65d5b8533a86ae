// The tetrahedral SDF gradient stencil (docs/physics.md §2, sdfGradientTetra in
// shaders/math/sdf.glsl) against the analytic gradient, in double.
//
// Why it is first order: with k0..k3 the vertices (+--), (--+), (-+-), (+++)
// and Taylor's f(p + h k) = f + h k.g + h^2/2 k^T H k + h^3/6 T[k,k,k] + ...,
//   sum_i k_i f(p + h k_i) / (4h)
//     = (sum k_i) f / (4h) + (sum k_i k_i^T) g / 4 + h/8 sum_i k_i (k_i^T H k_i) + O(h^2).
// sum k_i = 0 and sum k_i k_i^T = 4 I leave g. In the third moment, every
// product of three components with a repeated index reduces (k^2 = 1) to a
// first moment, which is 0, but k_x k_y k_z = +1 at all four vertices, so
// sum_i k_ix (k_i^T H k_i) = 2 H_yz * 4. Hence
//   stencil = g + h (f_yz, f_xz, f_xy) + O(h^2):
// first order wherever the world-frame Hessian has off-diagonal terms (most
// points of a curved surface), second order where it has none, and exact up
// to roundoff where f is linear (planes, box faces). The test measures the
// error table and checks all three against the analytic Hessian.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <vector>

#include <fmt/format.h>

#include "cloth_scenes.h"
#include "geometry/shared_math.h"

namespace vksim {
namespace {

using glm::dmat3;
using glm::dvec3;
using glm::dvec4;

enum class Expect { FirstOrder, SecondOrder, ExactUpToRoundoff };

// Near the probe the SDF is (distance to a local feature) - constant; its
// Hessian is (I - n n^T - a a^T) / d for a line along a, (I - n n^T) / d for
// a point, 0 for a plane, with n the unit direction from the feature.
enum class Feature { Point, Line, Plane };

struct Probe {
    const char* name;
    uint32_t type;
    dvec3 position;
    dvec4 rotation;
    dvec4 size;
    dvec3 local;  // probe point in the collider frame
    Feature feature;
    dvec3 featurePoint;  // local
    dvec3 featureAxis;   // local unit axis of a Line
    Expect expect;
};

// Renormalised in double: a float quaternion is unit only to ~1e-7, and
// quatRotate would scale by |q|^2 (visible at the 1e-7 level here).
dvec4 rotationQuat(glm::vec3 axis, float angle) { return glm::normalize(dvec4(test::axisAngle(axis, angle))); }
const dvec4 kIdentity(0, 0, 0, 1);

// Every probe keeps a margin > sqrt(3) * 0.1 (the stencil's reach at the
// largest h) from where its region's formula changes, so f is smooth there.
std::vector<Probe> probes() {
    const dvec4 q1 = rotationQuat({1, 2, 3}, 0.7f), q2 = rotationQuat({-2, 1, 0.5f}, 2.1f);
    const dvec3 c(0.2, -0.1, 0.3);
    const dvec4 box(0.5, 0.3, 0.4, 0), capsule(0.3, 0.5, 0, 0), sphere(0.5, 0, 0, 0);
    using enum Expect;
    return {
        {"sphere, generic point", gpu::kColliderSphere, c, q1, sphere, {0.45, 0.5, -0.35},
         Feature::Point, {0, 0, 0}, {}, FirstOrder},
        {"box corner region", gpu::kColliderBox, c, q1, box, {0.8, 0.55, -0.75},
         Feature::Point, {0.5, 0.3, -0.4}, {}, FirstOrder},
        {"box edge region", gpu::kColliderBox, c, q2, box, {0.8, -0.55, 0.1},
         Feature::Line, {0.5, -0.3, 0}, {0, 0, 1}, FirstOrder},
        {"capsule side", gpu::kColliderCapsule, c, q2, capsule, {0.5, 0.1, 0.4},
         Feature::Line, {0, 0, 0}, {0, 1, 0}, FirstOrder},
        {"capsule cap", gpu::kColliderCapsule, c, q1, capsule, {0.3, 0.9, -0.2},
         Feature::Point, {0, 0.5, 0}, {}, FirstOrder},
        // Off-diagonals vanish: on an axis through a sphere's centre, and for
        // an unrotated capsule side in its local z = 0 plane.
        {"sphere, on the x axis", gpu::kColliderSphere, c, kIdentity, sphere, {0.9, 0, 0},
         Feature::Point, {0, 0, 0}, {}, SecondOrder},
        {"capsule side, z = 0, unrotated", gpu::kColliderCapsule, c, kIdentity, capsule, {0.6, 0.2, 0},
         Feature::Line, {0, 0, 0}, {0, 1, 0}, SecondOrder},
        // f linear.
        {"box face region", gpu::kColliderBox, c, q2, box, {0.1, 0.6, -0.05},
         Feature::Plane, {}, {}, ExactUpToRoundoff},
        {"plane", gpu::kColliderPlane, c, q1, dvec4(0), {0.3, 0.4, -0.2}, Feature::Plane, {}, {}, ExactUpToRoundoff},
    };
}

dvec3 worldPoint(const Probe& probe) { return probe.position + ref::quatRotate(probe.rotation, probe.local); }

dvec3 analyticGradient(const Probe& probe, const dvec3& p) {
    return ref::sdfGradientAnalytic(probe.type, probe.position, probe.rotation, probe.size, p);
}

dmat3 outer(const dvec3& a, const dvec3& b) { return dmat3(a * b.x, a * b.y, a * b.z); }

dmat3 analyticHessian(const Probe& probe) {
    if (probe.feature == Feature::Plane) return dmat3(0.0);
    dvec3 d = probe.local - probe.featurePoint;
    dmat3 local(1.0);
    if (probe.feature == Feature::Line) {
        d -= glm::dot(d, probe.featureAxis) * probe.featureAxis;
        local -= outer(probe.featureAxis, probe.featureAxis);
    }
    dvec3 n = glm::normalize(d);
    local = (local - outer(n, n)) / glm::length(d);
    dmat3 R(ref::quatRotate(probe.rotation, dvec3(1, 0, 0)), ref::quatRotate(probe.rotation, dvec3(0, 1, 0)),
            ref::quatRotate(probe.rotation, dvec3(0, 0, 1)));
    return R * local * glm::transpose(R);
}

// Central differences of the analytic gradient: a check on analyticHessian
// (error ~ delta^2 f'''' ~ 1e-10).
dmat3 differencedHessian(const Probe& probe) {
    const double delta = 1e-5;
    const dvec3 p = worldPoint(probe);
    dmat3 H;
    for (int j = 0; j < 3; ++j) {
        dvec3 step(0.0);
        step[j] = delta;
        H[j] = (analyticGradient(probe, p + step) - analyticGradient(probe, p - step)) / (2 * delta);
    }
    return H;
}

// The predicted leading error vector b: stencil - gradient = h b + O(h^2).
dvec3 leadingError(const dmat3& H) { return {H[1][2], H[0][2], H[0][1]}; }

struct Row {
    double h;
    dvec3 error;  // stencil - analytic
};

std::vector<Row> errorTable(const Probe& probe) {
    std::vector<Row> rows;
    const dvec3 p = worldPoint(probe);
    const dvec3 exact = analyticGradient(probe, p);
    for (double h = 0.1; h > 9e-5; h /= 2) {
        dvec3 stencil = ref::sdfGradientTetra(probe.type, probe.position, probe.rotation, probe.size, p, h);
        rows.push_back({h, stencil - exact});
    }
    return rows;
}

double observedOrder(const Row& coarse, const Row& fine) {
    return std::log2(glm::length(coarse.error) / glm::length(fine.error));
}

void print(const Probe& probe, const std::vector<Row>& rows, const dvec3& b) {
    std::string text = fmt::format("\n{}: |b| = |(f_yz, f_xz, f_xy)| = {:.6g}\n", probe.name, glm::length(b));
    text += fmt::format("  {:>10} {:>12} {:>7} {:>12}\n", "h", "|error|", "order", "|error|/h");
    for (size_t k = 0; k < rows.size(); ++k) {
        double error = glm::length(rows[k].error);
        std::string order = k + 1 < rows.size() ? fmt::format("{:7.3f}", observedOrder(rows[k], rows[k + 1])) : "";
        text += fmt::format("  {:10.4e} {:12.4e} {:>7} {:12.4e}\n", rows[k].h, error, order, error / rows[k].h);
    }
    std::cout << text;
}

TEST(SdfStencil, AnalyticHessiansMatchDifferencedGradients) {
    for (const Probe& probe : probes()) {
        SCOPED_TRACE(probe.name);
        dmat3 difference = analyticHessian(probe) - differencedHessian(probe);
        for (int j = 0; j < 3; ++j) EXPECT_LT(glm::length(difference[j]), 1e-8);
    }
}

TEST(SdfStencil, ErrorTableAndObservedOrder) {
    for (const Probe& probe : probes()) {
        SCOPED_TRACE(probe.name);
        const std::vector<Row> rows = errorTable(probe);
        const dvec3 b = leadingError(analyticHessian(probe));
        print(probe, rows, b);
        switch (probe.expect) {
            case Expect::FirstOrder: {
                // A generic point: the leading term is present...
                ASSERT_GT(glm::length(b), 0.05);
                // ...the order tends to 1 (the O(h^2) term shifts it by
                // ~ h |f'''| / |b|, a few per cent at h = 6e-3)...
                for (size_t k = 0; k + 1 < rows.size(); ++k)
                    if (rows[k].h <= 6.3e-3) {
                        EXPECT_NEAR(observedOrder(rows[k], rows[k + 1]), 1.0, 0.05) << "h = " << rows[k].h;
                    }
                // ...and error / h tends to b itself, as a vector: at h ~ 1e-4
                // the O(h) remainder is ~1e-4 relative, roundoff ~1e-12 / h^2 less.
                const Row& finest = rows.back();
                EXPECT_LT(glm::length(finest.error / finest.h - b), 2e-3 * glm::length(b));
                break;
            }
            case Expect::SecondOrder: {
                EXPECT_LT(glm::length(b), 1e-12);
                for (size_t k = 0; k + 1 < rows.size(); ++k)
                    if (rows[k].h <= 6.3e-3) {
                        EXPECT_NEAR(observedOrder(rows[k], rows[k + 1]), 2.0, 0.1) << "h = " << rows[k].h;
                    }
                break;
            }
            case Expect::ExactUpToRoundoff: {
                // Only the rounding of the four f values (|f| <~ 1, a few
                // ulps each) divided by 4h remains.
                for (const Row& row : rows) EXPECT_LT(glm::length(row.error), 1e-14 / row.h) << "h = " << row.h;
                break;
            }
        }
    }
}

}  // namespace
}  // namespace vksim
