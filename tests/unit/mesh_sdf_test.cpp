// Mesh collider SDFs (mesh_sdf_bake.h, sdf.glsl meshSdfLocal): a sphere
// mesh baked into a grid against the analytic SDF of the sphere, distance
// and stencil gradient, with the error printed and bounded in terms of the
// grid spacing h; the baked values against brute force; the sampling code
// shared with the GPU at the samples and outside the grid.
#include <cmath>
#include <numbers>
#include <random>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../common/mesh_fixtures.h"
#include "geometry/mesh_sdf_bake.h"
#include "geometry/shared_math.h"
#include "geometry/signed_distance_grid.h"
#include "geometry/triangle_bvh.h"

namespace vksim::test {
namespace {

struct BakedSphere {
    Icosphere mesh;
    std::vector<glm::dvec3> positions;
    std::vector<uint32_t> triangles;
    SignedDistanceGrid grid;
    std::vector<float> buffer;
    uint32_t offset = 0;
};

BakedSphere bakeSphere(double radius, int subdivisions, uint32_t resolution) {
    BakedSphere s;
    s.mesh = makeIcosphere(radius, subdivisions);
    s.positions = s.mesh.positions;
    for (const glm::uvec3& t : s.mesh.triangles) s.triangles.insert(s.triangles.end(), {t.x, t.y, t.z});
    s.grid = bakeSignedDistanceGrid(s.positions, s.triangles, resolution);
    s.buffer = {1.0f, 2.0f, 3.0f};  // something before it: offsets are not 0
    s.offset = appendGridToBuffer(s.grid, s.buffer);
    return s;
}

// The mesh collider: grid at `offset`, scaled, placed and turned.
struct MeshColliderPose {
    glm::dvec3 position{0.0};
    glm::dvec4 rotation{0, 0, 0, 1};
    double scale = 1.0;
};

double meshSdf(const BakedSphere& s, const MeshColliderPose& pose, const glm::dvec3& p) {
    const ref::MeshSdfGridScope grids(s.buffer);
    return ref::sdfWorld(gpu::kColliderMesh, pose.position, pose.rotation, glm::dvec4(s.offset, pose.scale, 0, 0), p);
}

glm::dvec3 meshGradient(const BakedSphere& s, const MeshColliderPose& pose, const glm::dvec3& p, double h) {
    const ref::MeshSdfGridScope grids(s.buffer);
    return ref::sdfGradientTetra(gpu::kColliderMesh, pose.position, pose.rotation,
                                 glm::dvec4(s.offset, pose.scale, 0, 0), p, h);
}

struct SphereErrors {
    double h = 0;           // grid spacing in world units
    double distance = 0;    // max |f_mesh - f_sphere|
    double angle = 0;       // max angle [rad] between stencil gradient and the sphere's normal
    double sagitta = 0;     // polyhedron vs sphere, world units
    double nearest = 0;     // smallest |p - centre| sampled
};

// Random points with |p - centre| in [0.5 R, 1.6 R] inside the grid's box,
// against f = |p - c| - R (R = scale * r).
SphereErrors measureSphere(const BakedSphere& s, double radius, const MeshColliderPose& pose) {
    SphereErrors e;
    e.h = s.grid.spacing * pose.scale;
    e.sagitta = s.mesh.sagitta(radius) * pose.scale;
    e.nearest = 1e9;
    const double R = radius * pose.scale;
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> unit(-1.0, 1.0), shell(0.5, 1.6);
    for (int i = 0; i < 4000; ++i) {
        glm::dvec3 direction(unit(rng), unit(rng), unit(rng));
        if (glm::length(direction) < 0.1) continue;
        direction = glm::normalize(direction);
        const double distanceFromCentre = shell(rng) * R;
        const glm::dvec3 p = pose.position + distanceFromCentre * direction;
        // Inside the grid's box only: beyond it, the extension is an upper
        // bound, not an interpolation (tested below).
        const glm::dvec3 local = ref::quatRotateInverse(pose.rotation, p - pose.position) / pose.scale;
        const glm::dvec3 far = s.grid.point(s.grid.samples.x - 1, s.grid.samples.y - 1, s.grid.samples.z - 1);
        if (glm::any(glm::lessThan(local, s.grid.origin)) || glm::any(glm::greaterThan(local, far))) continue;
        e.nearest = std::min(e.nearest, distanceFromCentre);
        e.distance = std::max(e.distance, std::abs(meshSdf(s, pose, p) - (distanceFromCentre - R)));
        const glm::dvec3 g = meshGradient(s, pose, p, 1e-3 * pose.scale);
        e.angle = std::max(e.angle, std::acos(std::clamp(glm::dot(glm::normalize(g), direction), -1.0, 1.0)));
    }
    return e;
}

// Bounds, in terms of h:
// - distance: the grid stores the distance to the polyhedron, which is
//   within the sagitta of the sphere's; trilinear interpolation of a C^2
//   function errs by at most h^2/8 (|f_xx| + |f_yy| + |f_zz|) = h^2 / (4 rho)
//   for f = |p| - R at distance rho from the centre; the polyhedron's
//   distance has creases along the bisectors of neighbouring faces, where
//   interpolation can err by up to h times the bend between faces: h * the
//   facet angle, about 2 sagitta / edge; float storage adds 1e-6 R. So:
//   sagitta + h^2 / (4 rho_min) + h * facet angle + 1e-6 R.
// - gradient: the trilinear field's gradient is that of f to O(h |Hessian|)
//   = O(h / rho), plus the facet angle where the closest point is on a face
//   rather than the sphere: 2 h / rho_min + 2 * facet angle.
TEST(MeshSdf, SphereMeshMatchesTheAnalyticSphereWithinGridSpacingBounds) {
    const double radius = 0.5;
    const int subdivisions = 4;  // 5120 triangles
    double previous = 0.0;
    for (uint32_t resolution : {24u, 48u}) {
        const BakedSphere s = bakeSphere(radius, subdivisions, resolution);
        for (const MeshColliderPose& pose :
             {MeshColliderPose{},
              MeshColliderPose{{0.3, 1.2, -0.7}, glm::normalize(glm::dvec4(0.3, -0.5, 0.2, 0.8)), 2.5}}) {
            const SphereErrors e = measureSphere(s, radius, pose);
            const double facetAngle =
                4.0 * std::sqrt(s.mesh.sagitta(radius) / (2.0 * radius));  // 2 x half-angle of a face
            const double distanceBound =
                e.sagitta + e.h * e.h / (4.0 * e.nearest) + e.h * facetAngle + 1e-6 * radius * pose.scale;
            const double angleBound = 2.0 * e.h / e.nearest + 2.0 * facetAngle;
            std::cout << fmt::format(
                "[mesh sdf] resolution {:>2}, scale {}: h = {:.4f}: max |f - f_sphere| = {:.2e} = {:.3f} h (bound "
                "{:.2e}; sagitta {:.2e}), max gradient angle {:.4f} rad = {:.2f} h/R (bound {:.4f})\n",
                resolution, pose.scale, e.h, e.distance, e.distance / e.h, distanceBound, e.sagitta, e.angle,
                e.angle * radius * pose.scale / e.h, angleBound);
            EXPECT_LE(e.distance, distanceBound);
            EXPECT_LE(e.angle, angleBound);
            if (pose.scale == 1.0) {
                if (previous > 0.0) {
                    EXPECT_LT(e.distance, previous);  // finer grid, smaller error
                }
                previous = e.distance;
            }
        }
    }
}

// Every sample holds the exact distance to the nearest triangle (checked
// against all triangles), negative exactly inside.
TEST(MeshSdf, SamplesAreExactSignedDistances) {
    const BakedSphere s = bakeSphere(0.5, 2, 12);
    const glm::uvec3 n = s.grid.samples;
    std::cout << fmt::format("[mesh sdf] grid {}x{}x{}, spacing {:.4f}, {} triangles\n", n.x, n.y, n.z,
                             s.grid.spacing, s.triangles.size() / 3);
    double worst = 0.0;
    int inside = 0;
    for (uint32_t k = 0; k < n.z; ++k)
        for (uint32_t j = 0; j < n.y; ++j)
            for (uint32_t i = 0; i < n.x; ++i) {
                const glm::dvec3 p = s.grid.point(i, j, k);
                double nearest = 1e300;
                for (std::size_t t = 0; t < s.triangles.size(); t += 3) {
                    const glm::dvec3 q = closestPointOnTriangle(p, s.positions[s.triangles[t]],
                                                                s.positions[s.triangles[t + 1]],
                                                                s.positions[s.triangles[t + 2]]);
                    nearest = std::min(nearest, glm::length(q - p));
                }
                // Inside by the winding number (the sum of the solid angles
                // of the triangles, Van Oosterom and Strackee 1983): an
                // oracle independent of the baker's ray parity.
                double solidAngle = 0.0;
                for (std::size_t t = 0; t < s.triangles.size(); t += 3) {
                    const glm::dvec3 a = s.positions[s.triangles[t]] - p, b = s.positions[s.triangles[t + 1]] - p,
                                     c = s.positions[s.triangles[t + 2]] - p;
                    const double la = glm::length(a), lb = glm::length(b), lc = glm::length(c);
                    solidAngle += 2.0 * std::atan2(glm::dot(a, glm::cross(b, c)),
                                                   la * lb * lc + glm::dot(a, b) * lc + glm::dot(b, c) * la +
                                                       glm::dot(c, a) * lb);
                }
                const bool expectInside = solidAngle / (4.0 * std::numbers::pi) > 0.5;
                const float value = s.grid.values[s.grid.index(i, j, k)];
                EXPECT_EQ(value < 0.0f, expectInside) << "sample " << i << " " << j << " " << k;
                inside += value < 0.0f;
                worst = std::max(worst, std::abs(std::abs(double(value)) - nearest));
            }
    std::cout << fmt::format("[mesh sdf] {} samples inside; max |stored| - brute force = {:.2e}\n", inside, worst);
    EXPECT_LE(worst, 1e-7);  // float rounding of values below 1
    EXPECT_GT(inside, 0);
}

TEST(MeshSdf, SharedSamplingHitsTheSamplesAndExtendsBeyondTheGrid) {
    const BakedSphere s = bakeSphere(0.5, 2, 12);
    const MeshColliderPose identity;
    const glm::uvec3 n = s.grid.samples;
    // At the samples (in float coordinates, as the GPU sees the header).
    for (uint32_t k : {0u, n.z / 2, n.z - 1})
        for (uint32_t j : {0u, n.y / 3, n.y - 1})
            for (uint32_t i : {0u, n.x / 2, n.x - 1}) {
                const glm::dvec3 p =
                    glm::dvec3(glm::vec3(s.grid.origin)) + double(float(s.grid.spacing)) * glm::dvec3(i, j, k);
                EXPECT_NEAR(meshSdf(s, identity, p), s.grid.values[s.grid.index(i, j, k)], 1e-6);
            }
    // Beyond the grid: the value at the nearest point of the box plus the
    // distance to it, so far away it approaches the true distance from above.
    const glm::dvec3 far(5.0, 0.0, 0.0);
    const double f = meshSdf(s, identity, far);
    std::cout << fmt::format("[mesh sdf] f(5, 0, 0) = {:.4f} (sphere: 4.5)\n", f);
    EXPECT_GE(f, 4.5 - 1e-3);
    EXPECT_LE(f, 4.5 + s.grid.spacing);
    // Continuous across the box's face.
    const double face = s.grid.origin.x + s.grid.spacing * (n.x - 1);
    EXPECT_NEAR(meshSdf(s, identity, {face - 1e-7, 0.1, 0.05}), meshSdf(s, identity, {face + 1e-7, 0.1, 0.05}), 1e-6);
    // A NaN position has a NaN distance.
    EXPECT_TRUE(std::isnan(meshSdf(s, identity, {std::nan(""), 0.0, 0.0})));
}

TEST(MeshSdf, EvaluatingWithoutABoundGridIsAProgrammingError) {
    EXPECT_THROW(ref::sdfWorld(gpu::kColliderMesh, glm::dvec3(0.0), glm::dvec4(0, 0, 0, 1), glm::dvec4(0, 1, 0, 0),
                               glm::dvec3(0.0)),
                 std::logic_error);
    const std::vector<float> tooShort = {2, 2, 2, 1};
    const ref::MeshSdfGridScope grids(tooShort);
    EXPECT_THROW(ref::sdfWorld(gpu::kColliderMesh, glm::dvec3(0.0), glm::dvec4(0, 0, 0, 1), glm::dvec4(0, 1, 0, 0),
                               glm::dvec3(0.0)),
                 std::logic_error);
}

TEST(MeshSdf, GridBufferLimitsAndBakeResolution) {
    SignedDistanceGrid grid;
    grid.samples = {2, 2, 2};
    grid.spacing = 1.0;
    grid.values.assign(8, 1.0f);
    std::vector<float> buffer(std::size_t(1) << 24, 0.0f);
    EXPECT_THROW(appendGridToBuffer(grid, buffer), std::invalid_argument);
    const std::vector<glm::dvec3> tet = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const std::vector<uint32_t> faces = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    EXPECT_THROW(bakeSignedDistanceGrid(tet, faces, 3), std::invalid_argument);
    EXPECT_THROW(bakeSignedDistanceGrid(tet, faces, 257), std::invalid_argument);
    const SignedDistanceGrid small = bakeSignedDistanceGrid(tet, faces, 4);
    EXPECT_EQ(small.samples, glm::uvec3(4 + 1 + 2 * kSdfPaddingCells));
}

}  // namespace
}  // namespace vksim::test
