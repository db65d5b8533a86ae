#include "io/triangle_surface.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>

#include <fmt/format.h>

#include "io/asset_error.h"
#include "io/mesh_weld.h"
#include "io/quoted_input.h"

namespace vksim {
namespace {

FaceReport faceOf(const TriangleSurface& surface, uint32_t triangle) {
    return {surface.triangleFaces[triangle] + 1, surface.triangleLines[triangle]};
}

// The distinct faces of `triangles` (a polygon's fan gives several triangles
// of one face), in the order given.
std::vector<FaceReport> facesOf(const TriangleSurface& surface, const std::vector<uint32_t>& triangles) {
    std::vector<FaceReport> faces;
    for (uint32_t tri : triangles) {
        const FaceReport face = faceOf(surface, tri);
        if (std::none_of(faces.begin(), faces.end(), [&](const FaceReport& f) { return f.face == face.face; }))
            faces.push_back(face);
    }
    return faces;
}

// Whether triangle `tri` runs its side between a and b from a to b.
bool runsFromTo(const std::vector<uint32_t>& t, uint32_t tri, uint32_t a, uint32_t b) {
    for (uint32_t c = 0; c < 3; ++c)
        if (t[3 * tri + c] == a && t[3 * tri + (c + 1) % 3] == b) return true;
    return false;
}

// Edge statistics by sorting: each triangle side as (min, max, triangle),
// runs of equal (min, max) are one edge (docs/physics.md §6); each side also as a
// directed edge (from, to), of which a consistently wound manifold has no
// duplicates. An edge of two triangles that both run it the same way is
// misoriented (one of them is flipped).
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
        const uint32_t a = sides[first][0], b = sides[first][1];
        ++stats.edges;
        EdgeReport report{fileVertexOf[a] + 1, fileVertexOf[b] + 1, faces, surface.triangleLines[sides[first][2]], {}};
        if (faces == 1) {
            if (stats.boundaryEdges++ == 0) stats.firstBoundaryEdge = report;
        } else if (faces > 2) {
            if (stats.nonManifoldEdges++ == 0) {
                std::vector<uint32_t> triangles;
                for (std::size_t k = first; k < end; ++k) triangles.push_back(sides[k][2]);
                report.sharedBy = facesOf(surface, triangles);
                stats.firstNonManifoldEdge = report;
            }
        } else {
            const uint32_t t0 = sides[first][2], t1 = sides[first + 1][2];
            const bool forward0 = runsFromTo(t, t0, a, b), forward1 = runsFromTo(t, t1, a, b);
            if (forward0 == forward1 && stats.misorientedEdges++ == 0) {
                if (!forward0) std::swap(report.fileVertex0, report.fileVertex1);
                report.sharedBy = {faceOf(surface, t0), faceOf(surface, t1)};
                stats.firstMisorientedEdge = report;
            }
        }
        first = end;
    }
    std::sort(directed.begin(), directed.end());
    stats.consistentlyOriented = std::adjacent_find(directed.begin(), directed.end()) == directed.end();
}

// Fans around each vertex: the corners of the triangles at a vertex, joined
// (union-find) when their triangles share an edge out of it. On a 2-manifold
// (closed or with boundary) every vertex has one fan; two sheets or solids
// touching at a point give a vertex of two or more.
void countVertexFans(TriangleSurface& surface, const std::vector<uint32_t>& fileVertexOf,
                     const std::vector<uint32_t>& vertexLines) {
    const auto& t = surface.triangles;
    const auto corners = static_cast<uint32_t>(t.size());
    std::vector<uint32_t> parent(corners);
    for (uint32_t c = 0; c < corners; ++c) parent[c] = c;
    auto root = [&](uint32_t c) {
        while (parent[c] != c) c = parent[c] = parent[parent[c]];
        return c;
    };
    // (vertex, other end of an edge out of it, corner): runs of one edge join their corners.
    std::vector<std::array<uint32_t, 3>> spokes;
    spokes.reserve(2 * corners);
    for (uint32_t c = 0; c < corners; ++c) {
        const uint32_t tri = c / 3, k = c % 3;
        spokes.push_back({t[c], t[3 * tri + (k + 1) % 3], c});
        spokes.push_back({t[c], t[3 * tri + (k + 2) % 3], c});
    }
    std::sort(spokes.begin(), spokes.end());
    for (std::size_t i = 1; i < spokes.size(); ++i)
        if (spokes[i][0] == spokes[i - 1][0] && spokes[i][1] == spokes[i - 1][1])
            parent[root(spokes[i][2])] = root(spokes[i - 1][2]);

    // Corners by vertex; a vertex with more than one root is non-manifold.
    std::vector<std::pair<uint32_t, uint32_t>> byVertex;  // (vertex, corner)
    byVertex.reserve(corners);
    for (uint32_t c = 0; c < corners; ++c) byVertex.emplace_back(t[c], c);
    std::sort(byVertex.begin(), byVertex.end());
    SurfaceStatistics& stats = surface.stats;
    for (std::size_t first = 0; first < byVertex.size();) {
        std::size_t end = first + 1;
        while (end < byVertex.size() && byVertex[end].first == byVertex[first].first) ++end;
        std::vector<uint32_t> roots;  // distinct, in order of first appearance
        std::vector<std::vector<uint32_t>> fanTriangles;
        for (std::size_t k = first; k < end; ++k) {
            const uint32_t r = root(byVertex[k].second);
            auto at = std::find(roots.begin(), roots.end(), r);
            if (at == roots.end()) {
                roots.push_back(r);
                fanTriangles.emplace_back();
                at = roots.end() - 1;
            }
            fanTriangles[static_cast<std::size_t>(at - roots.begin())].push_back(byVertex[k].second / 3);
        }
        if (roots.size() > 1 && stats.nonManifoldVertices++ == 0) {
            const uint32_t vertex = byVertex[first].first;
            const uint32_t fileVertex = fileVertexOf[vertex];
            VertexReport report{fileVertex + 1, fileVertex < vertexLines.size() ? vertexLines[fileVertex] : 0, {}};
            for (const std::vector<uint32_t>& fan : fanTriangles) report.fans.push_back(facesOf(surface, fan));
            stats.firstNonManifoldVertex = report;
        }
        first = end;
    }
}

// "face 1 on line 7, face 2 on line 8" / "faces 1, 2, 3, ..." (at most `limit`).
std::string faceList(const std::vector<FaceReport>& faces, bool withLines, std::size_t limit = 6) {
    std::string text;
    for (std::size_t i = 0; i < faces.size() && i < limit; ++i) {
        if (!text.empty()) text += ", ";
        text += withLines ? fmt::format("face {} on line {}", faces[i].face, faces[i].line)
                          : fmt::format("{}", faces[i].face);
    }
    if (faces.size() > limit) text += fmt::format(", ... ({} in all)", faces.size());
    return text;
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
        surface.triangleFaces.push_back(mesh.triangleFaces[tri]);
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
    countVertexFans(surface, fileVertexOf, mesh.vertexLines);
    return surface;
}

TriangleSurface loadTriangleSurface(const std::filesystem::path& file, std::optional<double> weldTolerance) {
    return makeTriangleSurface(loadObj(file), clipInput(file.string()), weldTolerance);
}

void requireManifoldEdges(const TriangleSurface& surface, std::string_view purpose) {
    const SurfaceStatistics& stats = surface.stats;
    if (stats.nonManifoldEdges == 0) return;
    const EdgeReport& edge = *stats.firstNonManifoldEdge;
    throw AssetError(fmt::format("{}: non-manifold edge: the edge between vertices {} and {} belongs to {} faces ({}; "
                                 "{} such edge{}); {} needs at most two faces on an edge",
                                 surface.file, edge.fileVertex0, edge.fileVertex1, edge.faces,
                                 faceList(edge.sharedBy, true), stats.nonManifoldEdges,
                                 stats.nonManifoldEdges == 1 ? "" : "s", purpose));
}

void requireClosedSurface(const TriangleSurface& surface, std::string_view purpose) {
    const SurfaceStatistics& stats = surface.stats;
    requireManifoldEdges(surface, purpose);
    if (stats.boundaryEdges > 0) {
        const EdgeReport& edge = *stats.firstBoundaryEdge;
        throw AssetError(fmt::format("{}: not a closed surface: the edge between vertices {} and {} (line {}) "
                                     "belongs to {} face{} ({} boundary, {} non-manifold edges); {} needs a closed "
                                     "surface",
                                     surface.file, edge.fileVertex0, edge.fileVertex1, edge.line, edge.faces,
                                     edge.faces == 1 ? "" : "s", stats.boundaryEdges, stats.nonManifoldEdges,
                                     purpose));
    }
    if (stats.nonManifoldVertices > 0) {
        const VertexReport& vertex = *stats.firstNonManifoldVertex;
        std::string fans;
        for (const std::vector<FaceReport>& fan : vertex.fans)
            fans += (fans.empty() ? "faces " : " | faces ") + faceList(fan, false);
        throw AssetError(fmt::format("{}: non-manifold vertex: vertex {} (line {}) joins {} separate fans of faces "
                                     "({}) that meet only there ({} such vertex{}); {} needs a manifold surface",
                                     surface.file, vertex.fileVertex, vertex.line, vertex.fans.size(), fans,
                                     stats.nonManifoldVertices, stats.nonManifoldVertices == 1 ? "" : "es",
                                     purpose));
    }
    if (stats.misorientedEdges > 0) {
        const EdgeReport& edge = *stats.firstMisorientedEdge;
        throw AssetError(fmt::format("{}: inconsistent orientation: faces {} (line {}) and {} (line {}) both run the "
                                     "edge from vertex {} to vertex {} ({} such edge{}); {} needs the faces of a "
                                     "closed surface wound consistently (flip one of them)",
                                     surface.file, edge.sharedBy[0].face, edge.sharedBy[0].line, edge.sharedBy[1].face,
                                     edge.sharedBy[1].line, edge.fileVertex0, edge.fileVertex1,
                                     stats.misorientedEdges, stats.misorientedEdges == 1 ? "" : "s", purpose));
    }
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
    if (s.nonManifoldVertices > 0) text += fmt::format(", {} non-manifold vertices", s.nonManifoldVertices);
    text += fmt::format(", bounds [{:.4g}, {:.4g}, {:.4g}] .. [{:.4g}, {:.4g}, {:.4g}]", s.boundsMin.x, s.boundsMin.y,
                        s.boundsMin.z, s.boundsMax.x, s.boundsMax.y, s.boundsMax.z);
    return text;
}

}  // namespace vksim
