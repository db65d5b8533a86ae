#include "model/tethers.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <tuple>

namespace vksim {

namespace {

// Each vertex's neighbours along the triangles' edges, sorted and distinct,
// so that the search visits them in a fixed order.
std::vector<std::vector<uint32_t>> edgeNeighbours(size_t vertexCount, std::span<const uint32_t> triangles) {
    std::vector<std::vector<uint32_t>> neighbours(vertexCount);
    for (size_t t = 0; t + 2 < triangles.size(); t += 3)
        for (int e = 0; e < 3; ++e) {
            const uint32_t a = triangles[t + e], b = triangles[t + (e + 1) % 3];
            neighbours[a].push_back(b);
            neighbours[b].push_back(a);
        }
    for (std::vector<uint32_t>& list : neighbours) {
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    return neighbours;
}

}  // namespace

GeodesicField geodesicDistances(std::span<const glm::dvec3> positions, std::span<const uint32_t> triangles,
                                const std::vector<bool>& sources) {
    const size_t n = positions.size();
    const std::vector<std::vector<uint32_t>> neighbours = edgeNeighbours(n, triangles);
    GeodesicField field{std::vector<double>(n, std::numeric_limits<double>::infinity()),
                        std::vector<uint32_t>(n, kNoSource)};
    // Ordered by (distance, source, vertex): ties go to the lowest source
    // index, whatever order the queue pops equal keys in.
    using Entry = std::tuple<double, uint32_t, uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    for (uint32_t v = 0; v < n; ++v)
        if (sources[v]) {
            field.distance[v] = 0.0;
            field.source[v] = v;
            queue.emplace(0.0, v, v);
        }
    while (!queue.empty()) {
        const auto [d, source, v] = queue.top();
        queue.pop();
        if (d != field.distance[v] || source != field.source[v]) continue;  // a stale entry
        for (uint32_t u : neighbours[v]) {
            const double du = d + glm::length(positions[u] - positions[v]);
            if (du < field.distance[u] || (du == field.distance[u] && source < field.source[u])) {
                field.distance[u] = du;
                field.source[u] = source;
                queue.emplace(du, source, u);
            }
        }
    }
    return field;
}

std::vector<TetherAnchor> findTetherAnchors(std::span<const glm::dvec3> positions,
                                            std::span<const uint32_t> triangles, const std::vector<bool>& pinned,
                                            TetherMode mode) {
    std::vector<TetherAnchor> tethers;
    if (mode == TetherMode::Off) return tethers;
    const auto n = static_cast<uint32_t>(positions.size());
    if (mode == TetherMode::Geodesic) {
        const GeodesicField field = geodesicDistances(positions, triangles, pinned);
        for (uint32_t v = 0; v < n; ++v)
            if (!pinned[v] && field.source[v] != kNoSource) tethers.push_back({v, field.source[v], field.distance[v]});
        return tethers;
    }
    std::vector<uint32_t> pins;
    for (uint32_t v = 0; v < n; ++v)
        if (pinned[v]) pins.push_back(v);
    if (pins.empty()) return tethers;
    for (uint32_t v = 0; v < n; ++v) {
        if (pinned[v]) continue;
        TetherAnchor nearest{v, kNoSource, std::numeric_limits<double>::infinity()};
        for (uint32_t pin : pins) {
            const double d = glm::length(positions[v] - positions[pin]);
            if (d < nearest.restDistance) nearest = {v, pin, d};
        }
        tethers.push_back(nearest);
    }
    return tethers;
}

}  // namespace vksim
