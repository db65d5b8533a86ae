#include "io/mesh_weld.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

namespace vksim {
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

// Cell coordinate of x, clamped so that absurd coordinates (1e300 with a
// tolerance of 1e-9) share a cell instead of overflowing: only speed suffers.
int64_t cellOf(double x, double cell) {
    const double c = std::floor(x / cell);
    constexpr double kLimit = 4.0e18;
    return static_cast<int64_t>(std::clamp(c, -kLimit, kLimit));
}

}  // namespace

WeldedVertices weldVertices(std::span<const glm::dvec3> positions, double tolerance) {
    if (!(tolerance >= 0.0) || !std::isfinite(tolerance))
        throw std::invalid_argument("weldVertices: tolerance must be finite and >= 0");
    WeldedVertices result;
    result.remap.resize(positions.size());
    std::unordered_map<CellKey, std::vector<uint32_t>, CellKeyHash> cells;

    if (tolerance == 0.0) {
        // Exact duplicates: the bit patterns of the coordinates are the key
        // (with -0 and +0 made equal).
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

double defaultWeldTolerance(std::span<const glm::dvec3> positions) {
    if (positions.empty()) return 0.0;
    glm::dvec3 lo = positions[0], hi = positions[0];
    for (const glm::dvec3& p : positions) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    return 1e-6 * glm::length(hi - lo);
}

}  // namespace vksim
