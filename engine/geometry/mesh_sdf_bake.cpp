#include "geometry/mesh_sdf_bake.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "geometry/triangle_bvh.h"

namespace vksim {
namespace {

// Sign of the doubled signed area of (0, p1, p2) in 2D, with a tie-break
// when it is exactly zero. Swapping p1 and p2 negates the area exactly (the
// two products are the same numbers) and flips every tie-break test, so the
// result is antisymmetric: an edge shared by two triangles looks like a
// left turn from one and a right turn from the other, always. (After
// Bridson's SDFGen, makelevelset3.cpp.)
int orientation(double x1, double y1, double x2, double y2, double& twiceSignedArea) {
    twiceSignedArea = y1 * x2 - x1 * y2;
    if (twiceSignedArea > 0) return 1;
    if (twiceSignedArea < 0) return -1;
    if (y2 > y1) return 1;
    if (y2 < y1) return -1;
    if (x1 > x2) return 1;
    if (x1 < x2) return -1;
    return 0;  // p1 == p2
}

// Is (x0, y0) inside the 2D triangle (p1, p2, p3)? If so, its barycentric
// coordinates. Points on an edge or vertex are inside for exactly one of the
// triangles sharing it (see orientation()).
bool pointInTriangle2d(double x0, double y0, double x1, double y1, double x2, double y2, double x3, double y3,
                       glm::dvec3& barycentric) {
    x1 -= x0, x2 -= x0, x3 -= x0;
    y1 -= y0, y2 -= y0, y3 -= y0;
    double a = 0, b = 0, c = 0;
    const int signA = orientation(x2, y2, x3, y3, a);
    if (signA == 0) return false;
    if (orientation(x3, y3, x1, y1, b) != signA) return false;
    if (orientation(x1, y1, x2, y2, c) != signA) return false;
    const double sum = a + b + c;
    if (sum == 0.0) return false;  // a triangle seen edge-on: its neighbours count the crossing
    barycentric = glm::dvec3(a, b, c) / sum;
    return true;
}

// crossings[row * (samples.x + 1) + i]: rays crossing the surface between
// sample i - 1 and sample i of a row (i = 0: before the first sample).
std::vector<uint8_t> insideMask(const SignedDistanceGrid& grid, std::span<const glm::dvec3> positions,
                                std::span<const uint32_t> triangles) {
    const glm::uvec3 n = grid.samples;
    std::vector<uint32_t> crossings(std::size_t(n.y) * n.z * (n.x + 1), 0);
    for (std::size_t t = 0; t < triangles.size() / 3; ++t) {
        glm::dvec3 g[3];  // corners in grid units
        for (int c = 0; c < 3; ++c) g[c] = (positions[triangles[3 * t + c]] - grid.origin) / grid.spacing;
        const double loY = std::min({g[0].y, g[1].y, g[2].y}), hiY = std::max({g[0].y, g[1].y, g[2].y});
        const double loZ = std::min({g[0].z, g[1].z, g[2].z}), hiZ = std::max({g[0].z, g[1].z, g[2].z});
        // Rows whose ray can meet the triangle (the padding keeps every
        // triangle inside the grid, so the ranges are never clipped empty).
        const double j0 = std::max(0.0, std::ceil(loY)), j1 = std::min(double(n.y - 1), std::floor(hiY));
        const double k0 = std::max(0.0, std::ceil(loZ)), k1 = std::min(double(n.z - 1), std::floor(hiZ));
        for (double k = k0; k <= k1; ++k)
            for (double j = j0; j <= j1; ++j) {
                glm::dvec3 w;
                if (!pointInTriangle2d(j, k, g[0].y, g[0].z, g[1].y, g[1].z, g[2].y, g[2].z, w)) continue;
                const double x = w.x * g[0].x + w.y * g[1].x + w.z * g[2].x;
                const double first = std::clamp(std::ceil(x), 0.0, double(n.x));
                const std::size_t row = static_cast<std::size_t>(k) * n.y + static_cast<std::size_t>(j);
                ++crossings[row * (n.x + 1) + static_cast<std::size_t>(first)];
            }
    }
    std::vector<uint8_t> inside(std::size_t(n.x) * n.y * n.z, 0);
    for (uint32_t k = 0; k < n.z; ++k)
        for (uint32_t j = 0; j < n.y; ++j) {
            uint32_t count = 0;
            const std::size_t row = (std::size_t(k) * n.y + j) * (n.x + 1);
            for (uint32_t i = 0; i < n.x; ++i) {
                count += crossings[row + i];
                inside[grid.index(i, j, k)] = count % 2;
            }
        }
    return inside;
}

}  // namespace

SignedDistanceGrid sdfGridLayout(std::span<const glm::dvec3> positions, uint32_t resolution) {
    if (resolution < kMinSdfResolution || resolution > kMaxSdfResolution)
        throw std::invalid_argument(fmt::format("SDF resolution {} is outside [{}, {}]", resolution,
                                                kMinSdfResolution, kMaxSdfResolution));
    if (positions.empty()) throw std::invalid_argument("bakeSignedDistanceGrid: empty mesh");
    glm::dvec3 lo = positions[0], hi = positions[0];
    for (const glm::dvec3& p : positions) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    const glm::dvec3 extent = hi - lo;
    const double longest = std::max({extent.x, extent.y, extent.z});
    if (!(longest > 0.0) || !std::isfinite(longest))
        throw std::invalid_argument("bakeSignedDistanceGrid: the mesh has no extent");

    SignedDistanceGrid grid;
    grid.spacing = longest / resolution;
    grid.origin = lo - double(kSdfPaddingCells) * grid.spacing;
    for (int axis = 0; axis < 3; ++axis)
        grid.samples[axis] =
            static_cast<uint32_t>(std::ceil(extent[axis] / grid.spacing - 1e-9)) + 1 + 2 * kSdfPaddingCells;
    return grid;
}

SignedDistanceGrid bakeSignedDistanceGrid(std::span<const glm::dvec3> positions, std::span<const uint32_t> triangles,
                                          uint32_t resolution) {
    if (triangles.empty()) throw std::invalid_argument("bakeSignedDistanceGrid: empty mesh");
    SignedDistanceGrid grid = sdfGridLayout(positions, resolution);
    grid.values.resize(std::size_t(grid.samples.x) * grid.samples.y * grid.samples.z);

    const std::vector<uint8_t> inside = insideMask(grid, positions, triangles);
    const TriangleBvh bvh(positions, triangles);

    // z slices are independent: split them over the cores. Along a row the
    // previous sample's nearest triangle starts each query (coherence).
    auto bakeSlices = [&](uint32_t firstSlice, uint32_t step) {
        for (uint32_t k = firstSlice; k < grid.samples.z; k += step)
            for (uint32_t j = 0; j < grid.samples.y; ++j) {
                uint32_t hint = UINT32_MAX;
                for (uint32_t i = 0; i < grid.samples.x; ++i) {
                    const TriangleBvh::Nearest nearest = bvh.nearest(grid.point(i, j, k), hint);
                    hint = nearest.triangle;
                    const double distance = std::sqrt(nearest.distanceSquared);
                    grid.values[grid.index(i, j, k)] =
                        static_cast<float>(inside[grid.index(i, j, k)] ? -distance : distance);
                }
            }
    };
    const uint32_t workers = std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
    std::vector<std::thread> threads;
    for (uint32_t w = 1; w < workers; ++w) threads.emplace_back(bakeSlices, w, workers);
    bakeSlices(0, workers);
    for (std::thread& thread : threads) thread.join();
    return grid;
}

}  // namespace vksim
