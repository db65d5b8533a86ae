#pragma once
// The vertex colouring of vertex block descent (docs/physics.md §9.6, §16),
// shared by the mass-spring and the tetrahedral VBD solvers: a colour's
// vertices share no element, so one dispatch may move all of them at once
// (Gauss-Seidel across colours). Greedy in vertex order: each vertex takes
// the smallest colour none of its already coloured neighbours has.
// Deterministic: the same graph gives the same colours and order.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace vksim {

struct VertexColour {
    uint32_t first = 0;  // in the order
    uint32_t count = 0;
};

struct VertexColouring {
    std::vector<uint32_t> order;          // global vertex indices grouped by colour, each colour ascending
    std::vector<VertexColour> colours;
};

// Groups vertices `firstVertex + r` (r < colourOf.size()) by colour.
VertexColouring groupByColour(const std::vector<uint32_t>& colourOf, uint32_t firstVertex);

// Colours vertices 0..n-1 (local) greedily: `forEachNeighbour(r, take)`
// calls take(neighbour) for each local neighbour of r (repeats and r itself
// are harmless). Returns each vertex's colour.
template <class ForEachNeighbour>
std::vector<uint32_t> greedyColours(uint32_t n, ForEachNeighbour&& forEachNeighbour) {
    constexpr uint32_t kUncoloured = ~0u;
    std::vector<uint32_t> colourOf(n, kUncoloured);
    std::vector<uint32_t> takenBy;  // takenBy[c] == r: colour c is used by a neighbour of r
    uint32_t colourCount = 0;
    for (uint32_t r = 0; r < n; ++r) {
        takenBy.resize(std::size_t(colourCount) + 1, kUncoloured);
        forEachNeighbour(r, [&](uint32_t neighbour) {
            const uint32_t c = colourOf[neighbour];
            if (c != kUncoloured) takenBy[c] = r;
        });
        uint32_t colour = 0;
        while (takenBy[colour] == r) ++colour;
        colourOf[r] = colour;
        if (colour + 1 > colourCount) colourCount = colour + 1;
    }
    return colourOf;
}

}  // namespace vksim
