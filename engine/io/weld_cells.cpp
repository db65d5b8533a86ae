#include "io/weld_cells.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <utility>

namespace vksim {
namespace {

// A vertex and the key of its cell (or of one axis of it), sorted together
// so that the sort reads and writes memory in order.
struct Keyed {
    uint64_t key;
    uint32_t vertex;
};

constexpr uint64_t kSignBit = uint64_t{1} << 63;

// Cell coordinate of x, clamped so that absurd coordinates (1e300 with a
// cell of 1e-9) share a cell instead of overflowing: only speed suffers.
int64_t cellOf(double x, double cell) {
    const double c = std::floor(x / cell);
    constexpr double kLimit = 4.0e18;
    return static_cast<int64_t>(std::clamp(c, -kLimit, kLimit));
}

// Cell keys per axis as unsigned integers, relative to the smallest: a cell
// coordinate, or with cell size 0 a coordinate's bit pattern (-0 made +0).
// Relative keys keep distinct cells distinct and neighbours neighbours, and
// need only the bits they span: about 20 per axis at the default tolerance
// (a millionth of the bounding box), so that all three pack into one word.
class CellKeys {
public:
    CellKeys(std::span<const glm::dvec3> positions, double cellSize) : cellSize_(cellSize) {
        lowest_.fill(std::numeric_limits<uint64_t>::max());
        std::array<uint64_t, 3> highest{};
        if (cellSize > 0.0 && !positions.empty()) {  // the cell is monotonic in the coordinate
            glm::dvec3 lo = positions[0], hi = positions[0];
            for (const glm::dvec3& p : positions) {
                lo = glm::min(lo, p);
                hi = glm::max(hi, p);
            }
            for (int axis = 0; axis < 3; ++axis) {
                lowest_[axis] = absolute(lo[axis]);
                highest[axis] = absolute(hi[axis]);
            }
        } else {
            for (const glm::dvec3& p : positions)
                for (int axis = 0; axis < 3; ++axis) {
                    lowest_[axis] = std::min(lowest_[axis], absolute(p[axis]));
                    highest[axis] = std::max(highest[axis], absolute(p[axis]));
                }
        }
        for (int axis = 0; axis < 3; ++axis)
            bits_[axis] = positions.empty() ? 0 : std::bit_width(highest[axis] - lowest_[axis]);
    }

    int bits(int axis) const { return bits_[axis]; }
    bool packs() const { return bits_[0] + bits_[1] + bits_[2] <= 64; }

    uint64_t axisKey(const glm::dvec3& p, int axis) const { return absolute(p[axis]) - lowest_[axis]; }
    // z, then y, then x, in one word when packs().
    uint64_t packed(const glm::dvec3& p) const {
        return shiftLeft(axisKey(p, 2), bits_[0] + bits_[1]) | shiftLeft(axisKey(p, 1), bits_[0]) | axisKey(p, 0);
    }
    // A cell's z, y, x, comparing as the sort ordered (relative cells are
    // below 2^63), from a vertex in it or from its packed key.
    std::array<int64_t, 3> triple(const glm::dvec3& p) const {
        return {static_cast<int64_t>(axisKey(p, 2)), static_cast<int64_t>(axisKey(p, 1)),
                static_cast<int64_t>(axisKey(p, 0))};
    }
    std::array<int64_t, 3> unpack(uint64_t key) const {
        const uint64_t x = key & lowBits(bits_[0]), y = shiftRight(key, bits_[0]) & lowBits(bits_[1]);
        return {static_cast<int64_t>(shiftRight(key, bits_[0] + bits_[1])), static_cast<int64_t>(y),
                static_cast<int64_t>(x)};
    }

private:
    // Shifts by the full width or more give 0 (a key of 64 bits packs alone).
    static uint64_t shiftLeft(uint64_t x, int n) { return n >= 64 ? 0 : x << n; }
    static uint64_t shiftRight(uint64_t x, int n) { return n >= 64 ? 0 : x >> n; }
    static uint64_t lowBits(int n) { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }

    // In signed order for cells (the sign bit flipped), so that the smallest
    // is the most negative.
    uint64_t absolute(double x) const {
        if (cellSize_ == 0.0) return std::bit_cast<uint64_t>(x + 0.0);
        return static_cast<uint64_t>(cellOf(x, cellSize_)) ^ kSignBit;
    }

    double cellSize_;
    std::array<uint64_t, 3> lowest_;
    std::array<int, 3> bits_{};
};

// Stable least-significant-digit radix sort by the low `bits` bits of the
// key, 8 bits a pass: 256 counters and 256 write positions stay in the
// first-level cache. A pass whose digit is the same for every vertex is
// skipped.
void radixSort(std::vector<Keyed>& keyed, std::vector<Keyed>& scratch, int bits) {
    for (int shift = 0; shift < bits; shift += 8) {
        std::array<std::size_t, 256> count{};
        for (const Keyed& k : keyed) ++count[(k.key >> shift) & 0xff];
        if (std::find(count.begin(), count.end(), keyed.size()) != count.end()) continue;
        std::size_t offset = 0;
        for (std::size_t& c : count) offset += std::exchange(c, offset);
        for (const Keyed& k : keyed) scratch[count[(k.key >> shift) & 0xff]++] = k;
        keyed.swap(scratch);
    }
}

// The vertices in the order of their cells' keys, each vertex's order
// among its cell's kept (the sort is stable).
std::vector<Keyed> sortedByCell(std::span<const glm::dvec3> positions, const CellKeys& keys) {
    std::vector<Keyed> keyed(positions.size()), scratch(positions.size());
    if (keys.packs()) {
        for (std::size_t v = 0; v < positions.size(); ++v)
            keyed[v] = {keys.packed(positions[v]), static_cast<uint32_t>(v)};
        radixSort(keyed, scratch, keys.bits(0) + keys.bits(1) + keys.bits(2));
        return keyed;
    }
    // Keys wider than a word (a tolerance far below the default): by x,
    // then y, then z, each stage stable.
    for (std::size_t v = 0; v < positions.size(); ++v) keyed[v].vertex = static_cast<uint32_t>(v);
    for (int axis = 0; axis < 3; ++axis) {
        for (Keyed& k : keyed) k.key = keys.axisKey(positions[k.vertex], axis);
        radixSort(keyed, scratch, keys.bits(axis));
    }
    return keyed;
}

using Triple = std::array<int64_t, 3>;

// The occupied cells among the 27 around each cell. For each of the 9 rows
// (z + dz, y + dy) a cursor walks the sorted cells once: the first cell at or
// after (z + dz, y + dy, x - 1) only moves forward as the cell does.
void findNeighbors(const std::vector<Triple>& keys, WeldCells& grid) {
    std::array<std::size_t, 9> cursor{};
    for (std::size_t c = 0; c < keys.size(); ++c) {
        grid.cells[c].firstNeighbor = static_cast<uint32_t>(grid.neighbors.size());
        const Triple& home = keys[c];
        for (int row = 0; row < 9; ++row) {
            const Triple from{home[0] + row / 3 - 1, home[1] + row % 3 - 1, home[2] - 1};
            const Triple to{from[0], from[1], home[2] + 1};
            std::size_t& at = cursor[row];
            while (at < keys.size() && keys[at] < from) ++at;
            for (std::size_t k = at; k < keys.size() && keys[k] <= to; ++k)
                grid.neighbors.push_back(static_cast<uint32_t>(k));
        }
        grid.cells[c].neighborCount = static_cast<uint32_t>(grid.neighbors.size()) - grid.cells[c].firstNeighbor;
    }
}

}  // namespace

WeldCells weldCells(std::span<const glm::dvec3> positions, double cellSize) {
    const CellKeys keys(positions, cellSize);
    WeldCells grid;
    grid.cellOfVertex.resize(positions.size());
    grid.slots.resize(positions.size());
    std::vector<Triple> triples;  // of the cells, in order
    {
        // Each run of equal keys is a cell; the sorted vertices are dropped
        // before the neighbours are found, to keep the peak memory down.
        const std::vector<Keyed> sorted = sortedByCell(positions, keys);
        // A packed key is the cell; a wider one is read from the vertex.
        auto cellAt = [&](std::size_t i) {
            return keys.packs() ? keys.unpack(sorted[i].key) : keys.triple(positions[sorted[i].vertex]);
        };
        grid.cells.reserve(sorted.size());  // at most one a vertex; untouched pages cost nothing
        if (cellSize > 0.0) triples.reserve(sorted.size());
        Triple last{};
        for (std::size_t i = 0; i < sorted.size(); ++i) {
            const Triple cell = cellAt(i);
            if (i == 0 || cell != last) {
                grid.cells.push_back({.firstSlot = static_cast<uint32_t>(i)});
                if (cellSize > 0.0) triples.push_back(cell);
            }
            last = cell;
            grid.cellOfVertex[sorted[i].vertex] = static_cast<uint32_t>(grid.cells.size() - 1);
        }
    }
    if (cellSize > 0.0) {
        findNeighbors(triples, grid);
    } else {  // exact duplicates share a cell and never meet another
        grid.neighbors.resize(grid.cells.size());
        for (std::size_t c = 0; c < grid.cells.size(); ++c) {
            grid.neighbors[c] = static_cast<uint32_t>(c);
            grid.cells[c].firstNeighbor = static_cast<uint32_t>(c);
            grid.cells[c].neighborCount = 1;
        }
    }
    return grid;
}

}  // namespace vksim
