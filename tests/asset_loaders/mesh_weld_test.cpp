// Welding by sorted cells (mesh_weld.cpp, weld_cells.cpp) gives exactly what
// the hash map of cells it replaced gave: the same kept vertices in the same
// order and the same remap, on clusters, chains at the tolerance, exact
// duplicates, negative and absurd coordinates, and key spans past 64 bits.
// The hash-map weld is kept here, verbatim, as the oracle.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>
#include <unordered_map>
#include <vector>

#include "io/mesh_weld.h"
#include "io/weld_cells.h"

namespace vksim::test {
namespace {

struct CellKey {
    int64_t x, y, z;
    bool operator==(const CellKey&) const = default;
};

struct CellKeyHash {
    std::size_t operator()(const CellKey& k) const {
        uint64_t h = 14695981039346656037ull;
        for (int64_t v : {k.x, k.y, k.z}) h = (h ^ static_cast<uint64_t>(v)) * 1099511628211ull;
        return static_cast<std::size_t>(h);
    }
};

int64_t cellOf(double x, double cell) {
    const double c = std::floor(x / cell);
    constexpr double kLimit = 4.0e18;
    return static_cast<int64_t>(std::clamp(c, -kLimit, kLimit));
}

// The weld before sorted cells (io/mesh_weld.cpp up to commit 3961313).
WeldedVertices weldByHashMap(std::span<const glm::dvec3> positions, double tolerance) {
    WeldedVertices result;
    result.remap.resize(positions.size());
    std::unordered_map<CellKey, std::vector<uint32_t>, CellKeyHash> cells;
    if (tolerance == 0.0) {
        for (std::size_t v = 0; v < positions.size(); ++v) {
            const glm::dvec3 p = positions[v] + glm::dvec3(0.0);
            const CellKey key{std::bit_cast<int64_t>(p.x), std::bit_cast<int64_t>(p.y), std::bit_cast<int64_t>(p.z)};
            auto [it, inserted] = cells.try_emplace(key, std::vector<uint32_t>{});
            if (inserted) {
                it->second.push_back(static_cast<uint32_t>(result.positions.size()));
                result.positions.push_back(positions[v]);
            }
            result.remap[v] = it->second.front();
        }
        return result;
    }
    const double toleranceSquared = tolerance * tolerance;
    for (std::size_t v = 0; v < positions.size(); ++v) {
        const glm::dvec3 p = positions[v];
        const CellKey home{cellOf(p.x, tolerance), cellOf(p.y, tolerance), cellOf(p.z, tolerance)};
        uint32_t match = UINT32_MAX;
        for (int64_t dz = -1; dz <= 1; ++dz)
            for (int64_t dy = -1; dy <= 1; ++dy)
                for (int64_t dx = -1; dx <= 1; ++dx) {
                    auto it = cells.find({home.x + dx, home.y + dy, home.z + dz});
                    if (it == cells.end()) continue;
                    for (uint32_t kept : it->second) {
                        const glm::dvec3 d = result.positions[kept] - p;
                        if (kept < match && glm::dot(d, d) <= toleranceSquared) match = kept;
                    }
                }
        if (match == UINT32_MAX) {
            match = static_cast<uint32_t>(result.positions.size());
            result.positions.push_back(p);
            cells[home].push_back(match);
        }
        result.remap[v] = match;
    }
    return result;
}

using Bits = std::array<uint64_t, 3>;
Bits bitsOf(const glm::dvec3& p) { return std::bit_cast<Bits>(p); }

// Both welds of `points` agree bit for bit; returns how many vertices were kept.
std::size_t expectSameWeld(const std::vector<glm::dvec3>& points, double tolerance) {
    const WeldedVertices sorted = weldVertices(points, tolerance), oracle = weldByHashMap(points, tolerance);
    EXPECT_EQ(sorted.remap, oracle.remap) << "tolerance " << tolerance;
    EXPECT_EQ(sorted.positions.size(), oracle.positions.size()) << "tolerance " << tolerance;
    if (sorted.positions.size() == oracle.positions.size()) {
        for (std::size_t i = 0; i < sorted.positions.size(); ++i)
            EXPECT_EQ(bitsOf(sorted.positions[i]), bitsOf(oracle.positions[i])) << "kept vertex " << i;
    }
    return sorted.positions.size();
}

// `centres` points in [-1, 1]^3, each repeated 1 to 4 times up to `spread`
// away, in random order.
std::vector<glm::dvec3> clusters(std::mt19937_64& random, std::size_t centres, double spread) {
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> copies(1, 4);
    std::vector<glm::dvec3> points;
    for (std::size_t c = 0; c < centres; ++c) {
        const glm::dvec3 centre(unit(random), unit(random), unit(random));
        for (int k = copies(random); k > 0; --k)
            points.push_back(centre + spread * glm::dvec3(unit(random), unit(random), unit(random)));
    }
    std::shuffle(points.begin(), points.end(), random);
    return points;
}

TEST(MeshWeld, SortedCellsWeldAsTheHashMapDid) {
    std::mt19937_64 random(20261125);
    // Copies up to 0.6 and 1.2 tolerances apart: some join, some chain
    // (within the tolerance of a vertex that joined another) and stay.
    for (double spread : {0.6, 1.2}) {
        const std::vector<glm::dvec3> points = clusters(random, 4000, spread * 1e-3);
        const std::size_t kept = expectSameWeld(points, 1e-3);
        std::printf("[ weld     ] %zu clustered points, copies up to %.1f tolerances apart: %zu kept\n",
                    points.size(), spread, kept);
        EXPECT_LT(kept, points.size());
        EXPECT_GT(kept, 3000u);
    }
    // Dense: 2000 points in a box 4 tolerances wide, about 30 per cell.
    std::vector<glm::dvec3> dense = clusters(random, 2000, 0.0);
    for (glm::dvec3& p : dense) p *= 2.0;
    EXPECT_LT(expectSameWeld(dense, 1.0), dense.size());
}

TEST(MeshWeld, SortedCellsWeldAsTheHashMapDidOnLatticesAndExactCopies) {
    // A lattice spaced exactly one tolerance apart, its points on cell
    // borders, negative and positive, visited in a scrambled order: every
    // neighbour is at the tolerance, and who is kept depends on the order.
    std::vector<glm::dvec3> lattice;
    for (int z = -6; z < 6; ++z)
        for (int y = -6; y < 6; ++y)
            for (int x = -6; x < 6; ++x) lattice.push_back(0.25 * glm::dvec3(x, y, z));
    std::mt19937_64 random(7);
    std::shuffle(lattice.begin(), lattice.end(), random);
    const std::size_t kept = expectSameWeld(lattice, 0.25);
    EXPECT_LT(kept, lattice.size());
    EXPECT_GT(kept, lattice.size() / 8);

    // Exact copies, -0 and +0 alike, with tolerance 0.
    std::vector<glm::dvec3> copies = {{0, 0, 0}, {-0.0, 0, 0}, {1, 2, 3}, {0, -0.0, -0.0}, {1, 2, 3}, {1, 2, 3.0000001}};
    EXPECT_EQ(expectSameWeld(copies, 0.0), 3u);
    for (int i = 0; i < 500; ++i) copies.push_back(lattice[static_cast<std::size_t>(i) % 40]);
    EXPECT_GE(expectSameWeld(copies, 0.0), 42u);
}

TEST(MeshWeld, SortedCellsWeldAsTheHashMapDidOnWideSpans) {
    std::mt19937_64 random(99);
    // Cells 1e-12 wide over a span of 2e6: 61 bits of key per axis, 183 in all.
    std::vector<glm::dvec3> wide = clusters(random, 500, 4e-13);
    for (glm::dvec3& p : wide) p *= 1e6;
    expectSameWeld(wide, 1e-12);
    // Absurd coordinates: the cells clamp at +-4e18 and share a cell.
    const std::vector<glm::dvec3> absurd = {{1e300, 0, 0}, {1e300, 0, 0}, {-1e300, 1e-9, 0}, {1e299, 0, 0},
                                            {-1e300, 1.5e-9, 0}, {-1e300, 0, 1e300}, {0, 0, 0}};
    EXPECT_EQ(expectSameWeld(absurd, 1e-9), 5u);
    EXPECT_EQ(expectSameWeld({}, 1e-9), 0u);
}

// The grid itself: each cell's neighbours are exactly the occupied cells
// among the 27 around it, and its slots as many as its vertices.
TEST(WeldCells, NeighboursAreTheOccupiedCellsAroundEachCell) {
    std::mt19937_64 random(3);
    std::vector<glm::dvec3> points = clusters(random, 3000, 0.0);
    const WeldCells grid = weldCells(points, 0.1);
    std::vector<glm::i64vec3> cellKey(grid.cells.size());
    std::vector<uint32_t> vertices(grid.cells.size(), 0);
    for (std::size_t v = 0; v < points.size(); ++v) {
        cellKey[grid.cellOfVertex[v]] = glm::i64vec3(glm::floor(points[v] / 0.1));
        ++vertices[grid.cellOfVertex[v]];
    }
    std::size_t checked = 0;
    for (std::size_t c = 0; c < grid.cells.size(); ++c) {
        std::vector<uint32_t> expected, found(grid.neighbors.begin() + grid.cells[c].firstNeighbor,
                                              grid.neighbors.begin() + grid.cells[c].firstNeighbor +
                                                  grid.cells[c].neighborCount);
        for (std::size_t d = 0; d < grid.cells.size(); ++d) {
            const glm::i64vec3 gap = glm::abs(cellKey[d] - cellKey[c]);
            if (gap.x <= 1 && gap.y <= 1 && gap.z <= 1) expected.push_back(static_cast<uint32_t>(d));
        }
        std::sort(found.begin(), found.end());
        EXPECT_EQ(found, expected) << "cell " << c;
        const uint32_t end = c + 1 < grid.cells.size() ? grid.cells[c + 1].firstSlot : uint32_t(points.size());
        EXPECT_EQ(end - grid.cells[c].firstSlot, vertices[c]) << "cell " << c;
        checked += found.size();
    }
    EXPECT_GT(checked, 2 * grid.cells.size());  // neighbours other than themselves were found
}

}  // namespace
}  // namespace vksim::test
