#include "solvers/vertex_colouring.h"

#include <algorithm>

namespace vksim {

VertexColouring groupByColour(const std::vector<uint32_t>& colourOf, uint32_t firstVertex) {
    uint32_t colourCount = 0;
    for (uint32_t c : colourOf) colourCount = std::max(colourCount, c + 1);
    VertexColouring result;
    result.colours.assign(colourCount, VertexColour{});
    for (uint32_t c : colourOf) ++result.colours[c].count;
    uint32_t first = 0;
    for (VertexColour& colour : result.colours) {
        colour.first = first;
        first += colour.count;
    }
    result.order.resize(colourOf.size());
    std::vector<uint32_t> next(colourCount);
    for (uint32_t c = 0; c < colourCount; ++c) next[c] = result.colours[c].first;
    for (uint32_t r = 0; r < colourOf.size(); ++r) result.order[next[colourOf[r]]++] = firstVertex + r;
    return result;
}

}  // namespace vksim
