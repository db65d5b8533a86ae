#include "geometry/quadratic_bending.h"

#include <algorithm>
#include <array>
#include <optional>

#include "geometry/isometric_bending.h"

namespace vksim {

QuadraticBending buildQuadraticBending(std::span<const glm::dvec3> rest, std::span<const glm::uvec4> hinges) {
    QuadraticBending result;
    // Off-diagonal terms of every stencil, in hinge order; stable-sorted by
    // (row, column) below so each entry sums its terms in that order.
    std::vector<QuadraticTerm> terms;
    terms.reserve(hinges.size() * 12);
    for (const glm::uvec4& hinge : hinges) {
        const std::array<uint32_t, 4> v{hinge.x, hinge.y, hinge.z, hinge.w};
        const bool repeated = v[0] == v[1] || v[0] == v[2] || v[0] == v[3] || v[1] == v[2] || v[1] == v[3] ||
                              v[2] == v[3];
        const std::optional<IsometricBendingRest> bergou =
            repeated ? std::nullopt : isometricBendingRest(rest[v[0]], rest[v[1]], rest[v[2]], rest[v[3]]);
        if (!bergou) {
            ++result.degenerate;
            continue;
        }
        const std::array<double, 4> K{bergou->K.x, bergou->K.y, bergou->K.z, bergou->K.w};
        const double scale = bergou->scale;
        for (int a = 0; a < 4; ++a)
            for (int b = 0; b < 4; ++b)
                if (a != b) terms.push_back({v[a], v[b], scale * (K[a] * K[b])});  // K_a K_b == K_b K_a exactly
    }
    std::stable_sort(terms.begin(), terms.end(), [](const QuadraticTerm& l, const QuadraticTerm& r) {
        return l.row != r.row ? l.row < r.row : l.column < r.column;
    });

    for (size_t first = 0; first < terms.size();) {
        // One row: its off-diagonal entries, then the diagonal in its place.
        const uint32_t row = terms[first].row;
        std::vector<QuadraticTerm> entries;
        size_t end = first;
        for (; end < terms.size() && terms[end].row == row;) {
            QuadraticTerm entry{row, terms[end].column, 0.0};
            for (; end < terms.size() && terms[end].row == row && terms[end].column == entry.column; ++end)
                entry.unit += terms[end].unit;
            entries.push_back(entry);
        }
        double offDiagonal = 0.0;
        for (const QuadraticTerm& entry : entries) offDiagonal += entry.unit;
        const QuadraticTerm diagonal{row, row, 0.0 - offDiagonal};
        auto at = std::lower_bound(entries.begin(), entries.end(), row,
                                   [](const QuadraticTerm& e, uint32_t column) { return e.column < column; });
        entries.insert(at, diagonal);
        result.entries.insert(result.entries.end(), entries.begin(), entries.end());
        first = end;
    }
    return result;
}

}  // namespace vksim
