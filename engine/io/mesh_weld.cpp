#include "io/mesh_weld.h"

#include <cmath>
#include <stdexcept>

#include "io/weld_cells.h"

namespace vksim {

WeldedVertices weldVertices(std::span<const glm::dvec3> positions, double tolerance) {
    if (!(tolerance >= 0.0) || !std::isfinite(tolerance))
        throw std::invalid_argument("weldVertices: tolerance must be finite and >= 0");
    if (positions.size() >= UINT32_MAX) throw std::invalid_argument("weldVertices: too many vertices");
    WeldedVertices result;
    result.remap.resize(positions.size());
    // Cells of side `tolerance`: a vertex's matches lie in its cell or the
    // 26 around it. With tolerance 0, one cell per distinct point.
    WeldCells grid = weldCells(positions, tolerance);

    const double toleranceSquared = tolerance * tolerance;
    for (std::size_t v = 0; v < positions.size(); ++v) {
        const glm::dvec3 p = positions[v];
        WeldCells::Cell& home = grid.cells[grid.cellOfVertex[v]];
        uint32_t match = UINT32_MAX;
        for (uint32_t n = 0; n < home.neighborCount; ++n) {
            const WeldCells::Cell& cell = grid.cells[grid.neighbors[home.firstNeighbor + n]];
            // A cell's kept vertices in the order they were kept: the first
            // within the tolerance is its lowest.
            for (uint32_t s = cell.firstSlot; s < cell.firstSlot + cell.used; ++s) {
                const uint32_t kept = grid.slots[s];
                if (kept >= match) break;
                const glm::dvec3 d = result.positions[kept] - p;
                ++result.comparisons;
                if (tolerance == 0.0 || glm::dot(d, d) <= toleranceSquared) {
                    match = kept;
                    break;
                }
            }
        }
        if (match == UINT32_MAX) {
            match = static_cast<uint32_t>(result.positions.size());
            result.positions.push_back(p);
            grid.slots[home.firstSlot + home.used++] = match;
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
