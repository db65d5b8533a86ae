// geometry/triangle_intersection.h: triangles that cross, touch, lie apart
// or share a plane, and the count over surfaces, against cases whose answer
// is known by construction.
#include <gtest/gtest.h>

#include <random>

#include "geometry/triangle_intersection.h"

namespace vksim {
namespace {

const Triangle kFloor{glm::dvec3(-1, 0, -1), glm::dvec3(1, 0, -1), glm::dvec3(0, 0, 1)};

Triangle lifted(const Triangle& t, glm::dvec3 by) { return {t[0] + by, t[1] + by, t[2] + by}; }

TEST(TriangleIntersection, CrossingTrianglesIntersect) {
    // A vertical triangle through the floor's middle.
    const Triangle wall{glm::dvec3(-0.2, -0.5, 0), glm::dvec3(0.2, -0.5, 0), glm::dvec3(0, 0.5, 0)};
    EXPECT_TRUE(trianglesIntersect(kFloor, wall));
    EXPECT_TRUE(trianglesIntersect(wall, kFloor));
    // The same wall beside the floor (past its slanted edge) misses it.
    EXPECT_FALSE(trianglesIntersect(kFloor, lifted(wall, {0.0, 0.0, 1.5})));
}

TEST(TriangleIntersection, ParallelTrianglesApartDoNot) {
    EXPECT_FALSE(trianglesIntersect(kFloor, lifted(kFloor, {0.0, 1e-9, 0.0})));
    EXPECT_FALSE(trianglesIntersect(kFloor, lifted(kFloor, {0.0, -0.3, 0.1})));
}

TEST(TriangleIntersection, TouchingCounts) {
    // A vertex of the wall exactly on the floor, inside it.
    const Triangle standing{glm::dvec3(0, 0, 0), glm::dvec3(0.2, 0.5, 0), glm::dvec3(-0.2, 0.5, 0)};
    EXPECT_TRUE(trianglesIntersect(kFloor, standing));
    // Just above it: apart.
    EXPECT_FALSE(trianglesIntersect(kFloor, lifted(standing, {0.0, 1e-12, 0.0})));
}

TEST(TriangleIntersection, CoplanarOverlapAndSeparation) {
    EXPECT_TRUE(trianglesIntersect(kFloor, lifted(kFloor, {0.3, 0.0, 0.2})));
    // One inside the other, no edges crossing.
    const Triangle small{glm::dvec3(-0.1, 0, -0.5), glm::dvec3(0.1, 0, -0.5), glm::dvec3(0, 0, -0.3)};
    EXPECT_TRUE(trianglesIntersect(kFloor, small));
    EXPECT_TRUE(trianglesIntersect(small, kFloor));
    EXPECT_FALSE(trianglesIntersect(kFloor, lifted(kFloor, {3.0, 0.0, 0.0})));
}

TEST(TriangleIntersection, DegenerateTrianglesIntersectNothing) {
    const Triangle needle{glm::dvec3(0, -1, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 0)};
    EXPECT_FALSE(trianglesIntersect(kFloor, needle));
}

// Two grids of n x n squares (two triangles each), one above the other:
// none intersect; pushed through each other (tilted so that it crosses),
// many do, and neighbours within a grid are never counted.
TEST(TriangleIntersection, SurfacesCountOnlyNonNeighbours) {
    const uint32_t n = 8;
    std::vector<glm::dvec3> positions;
    std::vector<glm::uvec3> triangles;
    auto grid = [&](double height, double tilt) {
        const auto first = static_cast<uint32_t>(positions.size());
        for (uint32_t j = 0; j <= n; ++j)
            for (uint32_t i = 0; i <= n; ++i)
                positions.emplace_back(double(i) / n, height + tilt * (double(i) / n - 0.5), double(j) / n);
        for (uint32_t j = 0; j < n; ++j)
            for (uint32_t i = 0; i < n; ++i) {
                const uint32_t a = first + j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
                triangles.push_back({a, b, d});
                triangles.push_back({a, d, c});
            }
    };
    grid(0.0, 0.0);
    grid(0.01, 0.0);
    const SurfaceIntersections apart = countSurfaceIntersections(positions, triangles);
    EXPECT_EQ(apart.intersecting, 0u);
    EXPECT_GT(apart.tested, 0u);  // the grids' own non-neighbours overlap in bounding boxes

    positions.clear();
    triangles.clear();
    grid(0.0, 0.0);
    grid(0.0, 0.2);  // crosses the first along x = 0.5
    const SurfaceIntersections crossing = countSurfaceIntersections(positions, triangles);
    EXPECT_GE(crossing.intersecting, 2u * n);  // at least the two triangles of each square along the crossing
}

}  // namespace
}  // namespace vksim
