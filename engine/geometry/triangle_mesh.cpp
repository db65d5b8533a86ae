#include "geometry/triangle_mesh.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

namespace vksim {
namespace {

struct EdgeOfTriangle {
    uint32_t v0;  // v0 < v1
    uint32_t v1;
    uint32_t triangle;
    auto key() const { return std::tie(v0, v1, triangle); }
};

// The directed edge of `triangle` that joins a and b, following its winding,
// and the vertex opposite to it.
struct WoundEdge {
    uint32_t from;
    uint32_t to;
    uint32_t opposite;
};

WoundEdge woundEdge(std::span<const uint32_t> triangles, uint32_t triangle, uint32_t a, uint32_t b) {
    const uint32_t* t = &triangles[3 * size_t(triangle)];
    for (int corner = 0; corner < 3; ++corner) {
        uint32_t from = t[corner], to = t[(corner + 1) % 3];
        if ((from == a && to == b) || (from == b && to == a)) return {from, to, t[(corner + 2) % 3]};
    }
    throw std::logic_error("woundEdge: the triangle does not have this edge");
}

// Every triangle's edges, (min, max, triangle), sorted: runs of equal
// (min, max) are one edge, each run's triangles ascending.
std::vector<EdgeOfTriangle> sortedEdgesOfTriangles(std::span<const uint32_t> triangles, const char* caller) {
    if (triangles.size() % 3 != 0)
        throw std::invalid_argument(std::string(caller) + ": index count is not a multiple of 3");
    const uint32_t triangleCount = static_cast<uint32_t>(triangles.size() / 3);
    std::vector<EdgeOfTriangle> all;
    all.reserve(triangles.size());
    for (uint32_t t = 0; t < triangleCount; ++t)
        for (int corner = 0; corner < 3; ++corner) {
            uint32_t a = triangles[3 * size_t(t) + corner], b = triangles[3 * size_t(t) + (corner + 1) % 3];
            all.push_back({std::min(a, b), std::max(a, b), t});
        }
    std::sort(all.begin(), all.end(), [](const auto& l, const auto& r) { return l.key() < r.key(); });
    return all;
}

// The end of the run of edges equal to all[first].
size_t edgeRunEnd(const std::vector<EdgeOfTriangle>& all, size_t first) {
    size_t end = first + 1;
    while (end < all.size() && all[end].v0 == all[first].v0 && all[end].v1 == all[first].v1) ++end;
    return end;
}

}  // namespace

MeshEdges findMeshEdges(std::span<const uint32_t> triangles) {
    const std::vector<EdgeOfTriangle> all = sortedEdgesOfTriangles(triangles, "findMeshEdges");
    MeshEdges result;
    for (size_t first = 0; first < all.size();) {
        const size_t end = edgeRunEnd(all, first);
        const EdgeOfTriangle& edge = all[first];
        result.edges.push_back({edge.v0, edge.v1});
        if (end - first == 1) {
            ++result.boundaryCount;
        } else if (end - first == 2) {
            // Orient by the first triangle's winding: it is (from, to, opposite)
            // = (v0, v1, opposite1); the second, wound the other way along the
            // edge, is then (v0, opposite0, v1).
            WoundEdge own = woundEdge(triangles, edge.triangle, edge.v0, edge.v1);
            WoundEdge other = woundEdge(triangles, all[first + 1].triangle, edge.v0, edge.v1);
            result.interior.push_back({own.from, own.to, other.opposite, own.opposite});
        } else {
            ++result.nonManifoldCount;
        }
        first = end;
    }
    return result;
}

std::vector<std::array<uint32_t, 3>> trianglesAcrossEdges(std::span<const uint32_t> triangles) {
    const std::vector<EdgeOfTriangle> all = sortedEdgesOfTriangles(triangles, "trianglesAcrossEdges");
    for (size_t t = 0; t < triangles.size() / 3; ++t) {
        const uint32_t a = triangles[3 * t], b = triangles[3 * t + 1], c = triangles[3 * t + 2];
        if (a == b || b == c || c == a)
            throw std::invalid_argument("trianglesAcrossEdges: triangle " + std::to_string(t) + " repeats a corner");
    }
    std::vector<std::array<uint32_t, 3>> across(triangles.size() / 3, {kNoTriangle, kNoTriangle, kNoTriangle});
    // The corner of `triangle` that is neither end of the edge.
    auto opposite = [&](const EdgeOfTriangle& edge) {
        const uint32_t* t = &triangles[3 * size_t(edge.triangle)];
        return t[0] != edge.v0 && t[0] != edge.v1 ? 0 : (t[1] != edge.v0 && t[1] != edge.v1 ? 1 : 2);
    };
    for (size_t first = 0; first < all.size();) {
        const size_t end = edgeRunEnd(all, first);
        if (end - first == 2) {
            const EdgeOfTriangle &one = all[first], &other = all[first + 1];
            across[one.triangle][opposite(one)] = other.triangle;
            across[other.triangle][opposite(other)] = one.triangle;
        }
        first = end;
    }
    return across;
}

VertexTriangles vertexTriangleAdjacency(std::span<const uint32_t> triangles, uint32_t vertexCount) {
    VertexTriangles result;
    result.offsets.assign(size_t(vertexCount) + 1, 0);
    for (uint32_t v : triangles) {
        if (v >= vertexCount) throw std::invalid_argument("vertexTriangleAdjacency: vertex index out of range");
        ++result.offsets[v + 1];
    }
    for (uint32_t v = 0; v < vertexCount; ++v) result.offsets[v + 1] += result.offsets[v];

    result.triangles.resize(triangles.size());
    std::vector<uint32_t> next(result.offsets.begin(), result.offsets.end() - 1);
    for (size_t index = 0; index < triangles.size(); ++index)
        result.triangles[next[triangles[index]]++] = static_cast<uint32_t>(index / 3);
    return result;
}

}  // namespace vksim
