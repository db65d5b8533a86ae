#include "io/triangle_surface.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>

#include <fmt/format.h>

#include "io/asset_error.h"
#include "io/mesh_weld.h"

namespace vksim {
namespace {

// Edge statistics by sorting: each triangle side as (min, max, triangle),
// runs of equal (min, max) are one edge (SPEC.md 6); each side also as a
// directed edge (from, to), of which a consistently wound manifold has no
// duplicates.
void countEdges(TriangleSurface& surface, const std::vector<uint32_t>& fileVertexOf) {
    SurfaceStatistics& stats = surface.stats;
    const auto& t = surface.triangles;
    std::vector<std::array<uint32_t, 3>> sides;
    std::vector<std::pair<uint32_t, uint32_t>> directed;
    sides.reserve(t.size());
    directed.reserve(t.size());
    for (uint32_t tri = 0; tri < t.size() / 3; ++tri)
        for (uint32_t c = 0; c < 3; ++c) {
            const uint32_t a = t[3 * tri + c], b = t[3 * tri + (c + 1) % 3];
            sides.push_back({std::min(a, b), std::max(a, b), tri});
            directed.emplace_back(a, b);
        }
    std::sort(sides.begin(), sides.end());
    for (std::size_t first = 0; first < sides.size();) {
        std::size_t end = first + 1;
        while (end < sides.size() && sides[end][0] == sides[first][0] && sides[end][1] == sides[first][1]) ++end;
        const auto faces = static_cast<uint32_t>(end - first);
        ++stats.edges;
        const EdgeReport report{fileVertexOf[sides[first][0]] + 1, fileVertexOf[sides[first][1]] + 1, faces,
                                surface.triangleLines[sides[first][2]]};
        if (faces == 1) {
            if (stats.boundaryEdges++ == 0) stats.firstBoundaryEdge = report;
        } else if (faces > 2) {
            if (stats.nonManifoldEdges++ == 0) stats.firstNonManifoldEdge = report;
        }
        first = end;
    }
    std::sort(directed.begin(), directed.end());
    stats.consistentlyOriented = std::adjacent_find(directed.begin(), directed.end()) == directed.end();
}

}  // namespace

TriangleSurface makeTriangleSurface(const ObjMesh& mesh, const std::string& sourceName,
                                    std::optional<double> weldTolerance) {
    TriangleSurface surface;
    surface.file = sourceName;
    surface.source = mesh.source;
    surface.weldTolerance = weldTolerance.value_or(defaultWeldTolerance(mesh.positions));
    const WeldedVertices welded = weldVertices(mesh.positions, surface.weldTolerance);

    // Keep the welded vertices some triangle uses, in the order of the file.
    std::vector<uint32_t> weldedToKept(welded.positions.size(), kDroppedVertex);
    for (uint32_t v : mesh.triangles) weldedToKept[welded.remap[v]] = 0;
    std::vector<uint32_t> fileVertexOf;  // kept vertex -> its first `v` line (0-based)
    for (uint32_t w = 0; w < welded.positions.size(); ++w)
        if (weldedToKept[w] == 0) {
            weldedToKept[w] = static_cast<uint32_t>(surface.positions.size());
            surface.positions.push_back(welded.positions[w]);
        }
    fileVertexOf.resize(surface.positions.size());
    surface.fileVertexToVertex.resize(mesh.positions.size());
    for (std::size_t v = mesh.positions.size(); v-- > 0;) {
        const uint32_t kept = weldedToKept[welded.remap[v]];
        surface.fileVertexToVertex[v] = kept;
        if (kept != kDroppedVertex) fileVertexOf[kept] = static_cast<uint32_t>(v);
    }

    for (std::size_t tri = 0; tri < mesh.triangles.size() / 3; ++tri) {
        const uint32_t line = mesh.faceLines[mesh.triangleFaces[tri]];
        std::array<uint32_t, 3> corner{};
        std::array<glm::dvec3, 3> p{};
        for (int c = 0; c < 3; ++c) {
            corner[c] = surface.fileVertexToVertex[mesh.triangles[3 * tri + c]];
            p[c] = surface.positions[corner[c]];
        }
        const double area = 0.5 * glm::length(glm::cross(p[1] - p[0], p[2] - p[0]));
        const double longest = std::max({glm::length(p[1] - p[0]), glm::length(p[2] - p[1]), glm::length(p[0] - p[2])});
        if (!(area > 1e-12 * longest * longest))
            throw AssetError(fmt::format(
                "{}: line {}: face {} is degenerate: triangle of vertices {}, {}, {} has area {:.3g}{}", sourceName,
                line, mesh.triangleFaces[tri] + 1, mesh.triangles[3 * tri] + 1, mesh.triangles[3 * tri + 1] + 1,
                mesh.triangles[3 * tri + 2] + 1, area,
                (corner[0] == corner[1] || corner[1] == corner[2] || corner[0] == corner[2])
                    ? fmt::format(" (two corners are the same vertex after welding within {:.3g})",
                                  surface.weldTolerance)
                    : ""));
        surface.triangles.insert(surface.triangles.end(), corner.begin(), corner.end());
        surface.triangleLines.push_back(line);
    }

    SurfaceStatistics& stats = surface.stats;
    stats.fileVertices = static_cast<uint32_t>(mesh.positions.size());
    stats.vertices = static_cast<uint32_t>(surface.positions.size());
    stats.unusedVertices = static_cast<uint32_t>(welded.positions.size() - surface.positions.size());
    stats.triangles = static_cast<uint32_t>(surface.triangles.size() / 3);
    stats.boundsMin = stats.boundsMax = surface.positions.front();
    for (const glm::dvec3& p : surface.positions) {
        stats.boundsMin = glm::min(stats.boundsMin, p);
        stats.boundsMax = glm::max(stats.boundsMax, p);
    }
    // Divergence theorem: sum over triangles of (a . (b x c)) / 6, relative to
    // the box centre to keep the terms small.
    const glm::dvec3 centre = 0.5 * (stats.boundsMin + stats.boundsMax);
    for (std::size_t i = 0; i < surface.triangles.size(); i += 3)
        stats.signedVolume += glm::dot(surface.positions[surface.triangles[i]] - centre,
                                       glm::cross(surface.positions[surface.triangles[i + 1]] - centre,
                                                  surface.positions[surface.triangles[i + 2]] - centre)) /
                              6.0;
    countEdges(surface, fileVertexOf);
    return surface;
}

TriangleSurface loadTriangleSurface(const std::filesystem::path& file, std::optional<double> weldTolerance) {
    return makeTriangleSurface(loadObj(file), file.string(), weldTolerance);
}

void requireClosedSurface(const TriangleSurface& surface, std::string_view purpose) {
    const SurfaceStatistics& stats = surface.stats;
    if (stats.closed()) return;
    const EdgeReport& edge = stats.nonManifoldEdges > 0 ? *stats.firstNonManifoldEdge : *stats.firstBoundaryEdge;
    throw AssetError(fmt::format("{}: not a closed surface: the edge between vertices {} and {} (line {}) belongs to "
                                 "{} face{} ({} boundary, {} non-manifold edges); {} needs a closed surface",
                                 surface.file, edge.fileVertex0, edge.fileVertex1, edge.line, edge.faces,
                                 edge.faces == 1 ? "" : "s", stats.boundaryEdges, stats.nonManifoldEdges, purpose));
}

std::string describeSurface(const TriangleSurface& surface) {
    const SurfaceStatistics& s = surface.stats;
    std::string text = fmt::format("{}: {} vertices ({} in the file, welded within {:.3g}", surface.file, s.vertices,
                                   s.fileVertices, surface.weldTolerance);
    if (s.unusedVertices > 0) text += fmt::format(", {} unused dropped", s.unusedVertices);
    text += fmt::format("), {} triangles, {} edges ({} boundary, {} non-manifold), ", s.triangles, s.edges,
                        s.boundaryEdges, s.nonManifoldEdges);
    text += s.closed() ? fmt::format("closed, volume {:.4g}", s.signedVolume) : std::string("open");
    if (!s.consistentlyOriented) text += ", inconsistently wound";
    text += fmt::format(", bounds [{:.4g}, {:.4g}, {:.4g}] .. [{:.4g}, {:.4g}, {:.4g}]", s.boundsMin.x, s.boundsMin.y,
                        s.boundsMin.z, s.boundsMax.x, s.boundsMax.y, s.boundsMax.z);
    return text;
}

}  // namespace vksim
