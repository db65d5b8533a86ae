#include "geometry/body_shape.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "geometry/require_positive.h"

namespace vksim {
namespace {

// Indices are 32-bit: refuse a resolution whose vertices they cannot name.
void requireIndexable(uint64_t vertices, const char* shape) {
    if (vertices > std::numeric_limits<uint32_t>::max())
        throw std::invalid_argument(
            fmt::format("a {} surface of {} vertices is too fine for 32-bit indices", shape, vertices));
}

// Triangles (a, b, c) and (a, c, d) of a quad a b c d that runs
// counter-clockwise seen from outside.
void addQuad(std::vector<uint32_t>& triangles, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    triangles.insert(triangles.end(), {a, b, c, a, c, d});
}

}  // namespace

BodySurface boxSurface(glm::dvec3 halfExtents, uint32_t cellsPerEdge) {
    for (int i = 0; i < 3; ++i) requirePositive(halfExtents[i], "box half extent");
    if (cellsPerEdge == 0) throw std::invalid_argument("box cellsPerEdge must be >= 1");
    const uint64_t n = cellsPerEdge;
    requireIndexable(6 * n * n + 2, "box");

    // The vertices are the lattice points (i, j, k) in [0, n]^3 with some
    // coordinate 0 or n. Faces meet on edges and corners; looking each point
    // up by its lattice key welds them there.
    BodySurface surface;
    std::unordered_map<uint64_t, uint32_t> vertexOf;
    auto vertex = [&](glm::u64vec3 lattice) {
        const uint64_t key = (lattice.x * (n + 1) + lattice.y) * (n + 1) + lattice.z;
        auto [it, added] = vertexOf.try_emplace(key, static_cast<uint32_t>(surface.positions.size()));
        // (2i - n) / n is exactly -1 or 1 at the faces, so the faces are
        // exactly at +-halfExtents.
        if (added)
            surface.positions.push_back(halfExtents * ((2.0 * glm::dvec3(lattice) - static_cast<double>(n)) /
                                                       static_cast<double>(n)));
        return it->second;
    };

    for (int axis = 0; axis < 3; ++axis) {
        // (u, v, axis) is right-handed, so a quad that runs +u then +v turns
        // counter-clockwise seen from +axis.
        const int u = (axis + 1) % 3, v = (axis + 2) % 3;
        for (uint64_t side : {uint64_t{0}, n}) {
            auto at = [&](uint64_t iu, uint64_t iv) {
                glm::u64vec3 lattice(0);
                lattice[axis] = side;
                lattice[u] = iu;
                lattice[v] = iv;
                return vertex(lattice);
            };
            for (uint64_t iu = 0; iu < n; ++iu)
                for (uint64_t iv = 0; iv < n; ++iv) {
                    const uint32_t a = at(iu, iv), b = at(iu + 1, iv), c = at(iu + 1, iv + 1), d = at(iu, iv + 1);
                    if (side == n)
                        addQuad(surface.triangles, a, b, c, d);
                    else
                        addQuad(surface.triangles, a, d, c, b);
                }
        }
    }
    return surface;
}

BodySurface sphereSurface(double radius, uint32_t subdivisions) {
    requirePositive(radius, "sphere radius");
    // 10 * 4^s + 2 vertices: from s = 15 on, more than 32-bit indices name.
    if (subdivisions > 14)
        throw std::invalid_argument(fmt::format("sphere subdivisions must be <= 14, not {}", subdivisions));

    // The icosahedron's 12 vertices are the cyclic permutations of
    // (0, ±1, ±φ); its 30 edges join those at distance 2 (the next nearest
    // are 2φ apart) and its 20 faces are the triples joined pairwise. Faces
    // found this way rather than typed in cannot be mistyped; each is then
    // turned to face away from the centre.
    const double phi = (1.0 + std::sqrt(5.0)) / 2.0;
    BodySurface surface;
    for (int shift = 0; shift < 3; ++shift)
        for (double a : {-1.0, 1.0})
            for (double b : {-phi, phi}) {
                glm::dvec3 p(0.0);
                p[(shift + 1) % 3] = a;
                p[(shift + 2) % 3] = b;
                surface.positions.push_back(p);
            }
    auto joined = [&](uint32_t i, uint32_t j) {
        const glm::dvec3 d = surface.positions[i] - surface.positions[j];
        return glm::dot(d, d) < 6.0;  // 4 for an edge, 4 φ² ≈ 10.5 for the next nearest
    };
    for (uint32_t i = 0; i < 12; ++i)
        for (uint32_t j = i + 1; j < 12; ++j)
            for (uint32_t k = j + 1; k < 12; ++k) {
                if (!joined(i, j) || !joined(j, k) || !joined(k, i)) continue;
                const glm::dvec3 &a = surface.positions[i], &b = surface.positions[j], &c = surface.positions[k];
                if (glm::dot(glm::cross(b - a, c - a), a + b + c) > 0.0)
                    surface.triangles.insert(surface.triangles.end(), {i, j, k});
                else
                    surface.triangles.insert(surface.triangles.end(), {i, k, j});
            }
    for (glm::dvec3& p : surface.positions) p = glm::normalize(p);

    // Each subdivision splits every triangle into four at its edge midpoints,
    // one midpoint per edge (shared by the edge's two triangles, so the
    // surface stays welded), projected back onto the unit sphere.
    for (uint32_t level = 0; level < subdivisions; ++level) {
        std::unordered_map<uint64_t, uint32_t> midpointOf;
        auto midpoint = [&](uint32_t i, uint32_t j) {
            const uint64_t key = (uint64_t{std::min(i, j)} << 32) | std::max(i, j);
            auto [it, added] = midpointOf.try_emplace(key, static_cast<uint32_t>(surface.positions.size()));
            if (added) surface.positions.push_back(glm::normalize(surface.positions[i] + surface.positions[j]));
            return it->second;
        };
        std::vector<uint32_t> finer;
        finer.reserve(4 * surface.triangles.size());
        for (std::size_t t = 0; t < surface.triangles.size(); t += 3) {
            const uint32_t a = surface.triangles[t], b = surface.triangles[t + 1], c = surface.triangles[t + 2];
            const uint32_t ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
            finer.insert(finer.end(), {a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca});
        }
        surface.triangles = std::move(finer);
    }
    for (glm::dvec3& p : surface.positions) p *= radius;
    return surface;
}

BodySurface capsuleSurface(double radius, double halfLength, uint32_t slices, uint32_t stacksPerCap) {
    requirePositive(radius, "capsule radius");
    if (!(halfLength >= 0.0) || !std::isfinite(halfLength))
        throw std::invalid_argument(fmt::format("capsule half length must be finite and >= 0, not {}", halfLength));
    if (slices < 3) throw std::invalid_argument(fmt::format("capsule slices must be >= 3, not {}", slices));
    if (stacksPerCap == 0) throw std::invalid_argument("capsule stacksPerCap must be >= 1");
    const bool sharedEquator = halfLength == 0.0;  // two equators at one place would not be welded
    const uint64_t rings = 2 * uint64_t{stacksPerCap} - (sharedEquator ? 1 : 0);
    requireIndexable(rings * slices + 2, "capsule");

    BodySurface surface;
    std::vector<uint32_t> ringStart;
    // Ring k of a cap is k/stacksPerCap of the way from the pole (polar angle
    // 0) to the equator (π/2), whose cosine is set to 0 exactly.
    auto addRing = [&](uint32_t k, double capCentre, double side) {
        const double theta = std::numbers::pi / 2.0 * k / stacksPerCap;
        const double height = k == stacksPerCap ? 0.0 : radius * std::cos(theta);
        const double ring = k == stacksPerCap ? radius : radius * std::sin(theta);
        ringStart.push_back(static_cast<uint32_t>(surface.positions.size()));
        for (uint32_t j = 0; j < slices; ++j) {
            const double azimuth = 2.0 * std::numbers::pi * j / slices;
            surface.positions.emplace_back(ring * std::cos(azimuth), capCentre + side * height,
                                           ring * std::sin(azimuth));
        }
    };
    const uint32_t top = 0;
    surface.positions.emplace_back(0.0, halfLength + radius, 0.0);
    for (uint32_t k = 1; k <= stacksPerCap; ++k) addRing(k, halfLength, 1.0);
    for (uint32_t k = sharedEquator ? stacksPerCap - 1 : stacksPerCap; k >= 1; --k) addRing(k, -halfLength, -1.0);
    const uint32_t bottom = static_cast<uint32_t>(surface.positions.size());
    surface.positions.emplace_back(0.0, -halfLength - radius, 0.0);

    // With x = cos, z = sin the azimuth turns from +x towards +z, clockwise
    // seen from +y. So upper j -> upper j+1 -> lower j+1 -> lower j runs
    // counter-clockwise seen from outside (at azimuth 0: +z then -y, and
    // z x -y = +x points out); the pole fans are the same with one row
    // shrunk to the pole.
    auto next = [&](uint32_t j) { return (j + 1) % slices; };
    for (uint32_t j = 0; j < slices; ++j)
        surface.triangles.insert(surface.triangles.end(), {top, ringStart.front() + next(j), ringStart.front() + j});
    for (std::size_t r = 0; r + 1 < ringStart.size(); ++r)
        for (uint32_t j = 0; j < slices; ++j)
            addQuad(surface.triangles, ringStart[r] + j, ringStart[r] + next(j), ringStart[r + 1] + next(j),
                    ringStart[r + 1] + j);
    for (uint32_t j = 0; j < slices; ++j)
        surface.triangles.insert(surface.triangles.end(), {ringStart.back() + j, ringStart.back() + next(j), bottom});
    return surface;
}

}  // namespace vksim
