// The rigid primitives' surfaces (engine/geometry/body_shape.h): closed,
// welded, outward-wound 2-manifolds of sphere topology with the documented
// vertex counts, every vertex on the analytic shape (they are its contact
// points).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "geometry/body_shape.h"
#include "geometry/mass_properties.h"
#include "io/mesh_weld.h"

namespace vksim {
namespace {

using glm::dvec3;

// Empty when the surface is a closed, consistently wound 2-manifold of
// sphere topology, else what is wrong: indices in range, no triangle repeats
// a vertex, every directed edge once and its opposite once (each edge in
// exactly two triangles, running opposite ways), every vertex's ring of
// triangles one closed fan (no two cones touching at a vertex), one
// connected piece, and Euler characteristic V - E + F = 2.
std::string manifoldProblem(const BodySurface& s) {
    const std::size_t vertexCount = s.positions.size();
    if (s.triangles.size() % 3 != 0) return "index count is not a multiple of 3";
    std::map<std::pair<uint32_t, uint32_t>, int> directed;
    // Around vertex a, triangle (a, b, c) links b to c; a closed fan makes
    // these links one cycle.
    std::vector<std::map<uint32_t, uint32_t>> link(vertexCount);
    for (std::size_t t = 0; t < s.triangles.size(); t += 3) {
        const uint32_t corner[3] = {s.triangles[t], s.triangles[t + 1], s.triangles[t + 2]};
        for (int i = 0; i < 3; ++i) {
            const uint32_t a = corner[i], b = corner[(i + 1) % 3], c = corner[(i + 2) % 3];
            if (a >= vertexCount) return fmt::format("index {} out of range", a);
            if (a == b) return fmt::format("triangle {} repeats vertex {}", t / 3, a);
            if (++directed[{a, b}] != 1) return fmt::format("edge {}->{} is in two triangles the same way", a, b);
            link[a][b] = c;
        }
    }
    for (const auto& [edge, count] : directed)
        if (!directed.contains({edge.second, edge.first}))
            return fmt::format("edge {}->{} has no opposite: the surface is open there", edge.first, edge.second);
    for (std::size_t v = 0; v < vertexCount; ++v) {
        if (link[v].empty()) return fmt::format("vertex {} is in no triangle", v);
        std::size_t steps = 0;
        uint32_t at = link[v].begin()->first;
        do {
            at = link[v].at(at);
            ++steps;
        } while (at != link[v].begin()->first && steps <= link[v].size());
        if (steps != link[v].size()) return fmt::format("the triangles around vertex {} are not one fan", v);
    }
    std::vector<bool> reached(vertexCount, false);
    std::vector<uint32_t> stack = {0};
    reached[0] = true;
    std::size_t reachedCount = 1;
    while (!stack.empty()) {
        const uint32_t v = stack.back();
        stack.pop_back();
        for (const auto& [neighbour, unused] : link[v])
            if (!reached[neighbour]) {
                reached[neighbour] = true;
                ++reachedCount;
                stack.push_back(neighbour);
            }
    }
    if (reachedCount != vertexCount) return "the surface is in more than one piece";
    const long euler = static_cast<long>(vertexCount) - static_cast<long>(directed.size() / 2) +
                       static_cast<long>(s.triangles.size() / 3);
    if (euler != 2) return fmt::format("Euler characteristic {} (a sphere has 2)", euler);
    return "";
}

// Welded: no two vertices within the mesh loader's weld tolerance (1e-6 of
// the bounding box diagonal; these shapes' nearest distinct vertices are
// more than 1e-3 of it apart).
bool welded(const BodySurface& s) {
    return weldVertices(s.positions, defaultWeldTolerance(s.positions)).positions.size() == s.positions.size();
}

// Every shape must also give a positive volume: outward, not inward, winding.
void expectSoundSurface(const BodySurface& s, const std::string& what) {
    SCOPED_TRACE(what);
    EXPECT_EQ(manifoldProblem(s), "");
    EXPECT_TRUE(welded(s));
    EXPECT_GT(polyhedronMassProperties(s.positions, s.triangles).volume, 0.0);
}

TEST(RigidShapes, BoxIsAClosedWeldedGridOnEveryFace) {
    const dvec3 half(0.3, 0.7, 1.9);
    for (uint32_t n : {1u, 2u, 3u, 5u, 8u}) {
        const BodySurface box = boxSurface(half, n);
        expectSoundSurface(box, fmt::format("cellsPerEdge {}", n));
        // 6 faces of (n+1)^2 grid points, edges and corners shared: 6 n^2 + 2.
        EXPECT_EQ(box.positions.size(), 6u * n * n + 2u);
        EXPECT_EQ(box.triangles.size(), 3u * 12u * n * n);
        // Every vertex on the surface: some coordinate at +-half, none beyond.
        // Corners and face centres exactly (the contact points that matter most).
        for (const dvec3& p : box.positions) {
            double onFace = 0.0;
            for (int i = 0; i < 3; ++i) {
                EXPECT_LE(std::abs(p[i]), half[i]);
                onFace = std::max(onFace, std::abs(p[i]) / half[i]);
            }
            EXPECT_EQ(onFace, 1.0);
        }
        EXPECT_NE(std::find(box.positions.begin(), box.positions.end(), half), box.positions.end());
        EXPECT_NE(std::find(box.positions.begin(), box.positions.end(), -half), box.positions.end());
    }
    EXPECT_EQ(boxSurface(half, 1).positions.size(), 8u);
}

TEST(RigidShapes, IcosphereIsAClosedWeldedSubdividedIcosahedron) {
    const double radius = 0.35;
    for (uint32_t s = 0; s <= 4; ++s) {
        const BodySurface sphere = sphereSurface(radius, s);
        expectSoundSurface(sphere, fmt::format("subdivisions {}", s));
        const std::size_t fours = std::size_t{1} << (2 * s);
        EXPECT_EQ(sphere.positions.size(), 10 * fours + 2);
        EXPECT_EQ(sphere.triangles.size(), 3 * 20 * fours);
        // Projected onto the sphere: normalize then scale, a few roundings.
        for (const dvec3& p : sphere.positions) EXPECT_NEAR(glm::length(p), radius, 1e-15 * radius);
    }
}

TEST(RigidShapes, CapsuleIsAClosedWeldedManifoldWithSinglePoles) {
    const double radius = 0.2;
    for (double halfLength : {0.0, 0.45})
        for (uint32_t slices : {3u, 4u, 7u, 16u})
            for (uint32_t stacks : {1u, 2u, 5u}) {
                const BodySurface capsule = capsuleSurface(radius, halfLength, slices, stacks);
                expectSoundSurface(capsule,
                                   fmt::format("halfLength {} slices {} stacks {}", halfLength, slices, stacks));
                // Rings: stacks per cap, the equator shared when halfLength is 0.
                const std::size_t rings = 2 * stacks - (halfLength == 0.0 ? 1 : 0);
                EXPECT_EQ(capsule.positions.size(), rings * slices + 2);
                std::size_t poles = 0;
                for (const dvec3& p : capsule.positions) {
                    // On the capsule: at distance radius from the axis segment (to
                    // a few roundings of a unit-sized value).
                    const dvec3 axisPoint(0.0, std::clamp(p.y, -halfLength, halfLength), 0.0);
                    EXPECT_NEAR(glm::length(p - axisPoint), radius, 1e-15);
                    if (std::abs(std::abs(p.y) - (halfLength + radius)) < 1e-12) ++poles;
                }
                EXPECT_EQ(poles, 2u);
            }
}

TEST(RigidShapes, RejectResolutionsAndSizesThatMakeNoSurface) {
    EXPECT_THROW(boxSurface(dvec3(1.0), 0), std::invalid_argument);
    EXPECT_THROW(boxSurface(dvec3(1.0, 0.0, 1.0), 2), std::invalid_argument);
    EXPECT_THROW(boxSurface(dvec3(1.0), 30000), std::invalid_argument);  // 5.4e9 vertices
    EXPECT_THROW(sphereSurface(-1.0, 2), std::invalid_argument);
    EXPECT_THROW(sphereSurface(1.0, 15), std::invalid_argument);
    EXPECT_THROW(capsuleSurface(1.0, 1.0, 2, 2), std::invalid_argument);
    EXPECT_THROW(capsuleSurface(1.0, 1.0, 8, 0), std::invalid_argument);
    EXPECT_THROW(capsuleSurface(1.0, -0.1, 8, 2), std::invalid_argument);
    EXPECT_THROW(capsuleSurface(std::nan(""), 1.0, 8, 2), std::invalid_argument);
}

}  // namespace
}  // namespace vksim
