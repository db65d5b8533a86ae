// The bounding radius collision generation culls by (geometry/collider_bounds.h):
// for every collider type, the SDF as sdf.glsl evaluates it (the shared
// math, in double) is at least |p - c| - R at points all around, near and
// far, inside and out; and R is tight enough to cull (within 2x of the
// shape's own extent for the primitives and the baked icosphere).
#include <cmath>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../common/mesh_fixtures.h"
#include "geometry/collider_bounds.h"
#include "geometry/mesh_sdf_bake.h"
#include "geometry/shared_math.h"
#include "geometry/signed_distance_grid.h"

namespace vksim::test {
namespace {

gpu::Collider collider(uint32_t type, glm::vec4 size) {
    gpu::Collider c{};
    c.type = type;
    c.size = size;
    c.position = glm::vec4(0.4f, -1.1f, 2.0f, 0.0f);
    c.rotation = glm::normalize(glm::vec4(0.3f, -0.5f, 0.2f, 0.8f));
    return c;
}

// The smallest (f(p) - (|p - c| - R)) / (|p - c| + R) over points on
// spheres of radius 0.01 to 20 about c (negative: the bound is broken; a
// float quaternion's norm, 1 +- 1e-7, leaves -1e-7 of rounding, which the
// shader's slack of 1e-4 of the same sum covers a thousand times).
double worstMargin(const gpu::Collider& c, float bound) {
    const glm::dvec3 centre = glm::dvec3(glm::vec3(c.position));
    double worst = 1e30;
    for (double r : {0.01, 0.1, 0.3, 0.6, 1.0, 1.7, 3.0, 7.0, 20.0})
        for (int i = 0; i < 200; ++i) {
            // Points spread over the sphere (a golden-angle spiral).
            const double z = 1.0 - 2.0 * (i + 0.5) / 200.0, phi = 2.399963229728653 * i;
            const glm::dvec3 dir(std::sqrt(1.0 - z * z) * std::cos(phi), std::sqrt(1.0 - z * z) * std::sin(phi), z);
            const glm::dvec3 p = centre + r * dir;
            const double f = ref::sdfWorld(c.type, centre, glm::dvec4(c.rotation), glm::dvec4(c.size), p);
            worst = std::min(worst, (f - (r - double(bound))) / (r + double(bound)));
        }
    return worst;
}

TEST(ColliderBounds, PrimitivesBoundTheirDistance) {
    const std::vector<float> noGrids;
    struct Case {
        const char* name;
        gpu::Collider c;
        float extent;  // the shape's farthest point from its origin
    };
    const Case cases[] = {
        {"sphere", collider(gpu::kColliderSphere, {0.5f, 0, 0, 0}), 0.5f},
        {"box", collider(gpu::kColliderBox, {0.3f, 0.1f, 0.7f, 0}), std::sqrt(0.09f + 0.01f + 0.49f)},
        {"capsule", collider(gpu::kColliderCapsule, {0.2f, 0.6f, 0, 0}), 0.8f},
    };
    for (const Case& k : cases) {
        const float R = colliderBoundRadius(k.c, noGrids);
        const double margin = worstMargin(k.c, R);
        std::cout << fmt::format("[bounds] {}: R = {:.4f}, least (f - (|p - c| - R)) / (|p - c| + R) = {:.3e}\n",
                                 k.name, R, margin);
        EXPECT_GE(margin, -1e-6) << k.name;
        EXPECT_NEAR(R, k.extent, 1e-6f) << k.name;
    }
    EXPECT_LT(colliderBoundRadius(collider(gpu::kColliderPlane, {}), noGrids), 0.0f);
}

// A baked icosphere of radius 0.5 at scale 2.5: the grid's bound holds
// inside and beyond the grid, and is within 2% of the true 1.25.
TEST(ColliderBounds, AMeshColliderBoundsItsSampledDistance) {
    const Icosphere mesh = makeIcosphere(0.5, 2);
    std::vector<uint32_t> triangles;
    for (const glm::uvec3& t : mesh.triangles) triangles.insert(triangles.end(), {t.x, t.y, t.z});
    const SignedDistanceGrid grid = bakeSignedDistanceGrid(mesh.positions, triangles, 16);
    std::vector<float> buffer = {1.0f, 2.0f, 3.0f};
    const uint32_t offset = appendGridToBuffer(grid, buffer);
    const gpu::Collider c = collider(gpu::kColliderMesh, {float(offset), 2.5f, 0, 0});
    const float R = colliderBoundRadius(c, buffer);
    const ref::MeshSdfGridScope scope(buffer);
    const double margin = worstMargin(c, R);
    std::cout << fmt::format("[bounds] mesh: R = {:.4f} (true extent 1.25), least (f - (|p - c| - R)) / (|p - c| + R) "
                             "= {:.3e}\n",
                             R, margin);
    EXPECT_GE(margin, -1e-6);
    EXPECT_GT(R, 1.2f);
    EXPECT_LT(R, 1.28f);
}

}  // namespace
}  // namespace vksim::test
