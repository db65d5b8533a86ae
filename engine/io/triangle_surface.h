#pragma once
// A triangle mesh file made ready for simulation: read (obj_loader.h),
// welded (mesh_weld.h), stripped of vertices no face uses, checked for
// degenerate triangles, and described by its statistics. Cloth objects are
// built from it, mesh colliders bake their signed distance grid from it and
// TetGen fills it with tetrahedra; the last two need it closed
// (requireClosedSurface).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "io/asset_file.h"
#include "io/obj_loader.h"

namespace vksim {

// A face in messages: its number (1-based, the order of the `f` lines) and line.
struct FaceReport {
    uint32_t face = 0;
    uint32_t line = 0;
};

// An edge shown in messages: its vertices as numbered in the file (1-based,
// the numbers of the `v` lines), the faces that share it and the line of the
// first of them. For the first non-manifold and the first inconsistently
// oriented edge, `sharedBy` lists the faces on it (for the latter the two
// that run it from fileVertex0 to fileVertex1).
struct EdgeReport {
    uint32_t fileVertex0 = 0, fileVertex1 = 0;
    uint32_t faces = 0;
    uint32_t line = 0;
    std::vector<FaceReport> sharedBy;
};

// A vertex whose triangles form more than one fan (edge-connected group
// around it): two sheets or two solids touching at a point. `fans` lists the
// faces of each fan (up to a few of each).
struct VertexReport {
    uint32_t fileVertex = 0;  // 1-based
    uint32_t line = 0;        // of its `v` line
    std::vector<std::vector<FaceReport>> fans;
};

struct SurfaceStatistics {
    uint32_t fileVertices = 0;          // `v` lines
    uint32_t vertices = 0;              // after welding, without unused ones
    uint32_t unusedVertices = 0;        // welded vertices no face uses (dropped)
    uint32_t triangles = 0;
    uint32_t edges = 0;
    uint32_t boundaryEdges = 0;         // in one triangle
    uint32_t nonManifoldEdges = 0;      // in three or more
    bool consistentlyOriented = false;  // no directed edge appears twice
    uint32_t misorientedEdges = 0;      // in two triangles that run it in the same direction
    uint32_t nonManifoldVertices = 0;   // whose triangles form two or more fans
    double signedVolume = 0.0;          // enclosed volume (closed meshes); > 0 when faces wind outwards
    glm::dvec3 boundsMin{0.0}, boundsMax{0.0};
    std::optional<EdgeReport> firstBoundaryEdge, firstNonManifoldEdge, firstMisorientedEdge;
    std::optional<VertexReport> firstNonManifoldVertex;

    bool closed() const { return boundaryEdges == 0 && nonManifoldEdges == 0; }
};

struct TriangleSurface {
    std::string file;                 // the path as given, for messages
    std::vector<glm::dvec3> positions;  // welded, in the file's units and frame
    std::vector<uint32_t> triangles;    // 3 per triangle, into positions
    std::vector<uint32_t> triangleLines;  // the line of the face each triangle comes from
    std::vector<uint32_t> triangleFaces;  // the face (0-based, file order) each triangle comes from
    // The vertex each `v` line became (0-based file order -> positions), or
    // kDroppedVertex for a vertex no face uses.
    std::vector<uint32_t> fileVertexToVertex;
    double weldTolerance = 0.0;       // the tolerance used
    SourceFingerprint source;
    SurfaceStatistics stats;
};

inline constexpr uint32_t kDroppedVertex = UINT32_MAX;

// Welds with `weldTolerance` (file units; default defaultWeldTolerance()),
// drops unused vertices, computes the statistics. A triangle whose area is
// at most 1e-12 of its longest edge squared (zero area, or two corners welded
// together) is an AssetError naming its line and face.
TriangleSurface makeTriangleSurface(const ObjMesh& mesh, const std::string& sourceName,
                                    std::optional<double> weldTolerance = std::nullopt);
TriangleSurface loadTriangleSurface(const std::filesystem::path& file,
                                    std::optional<double> weldTolerance = std::nullopt);

// Throws AssetError when an edge belongs to three or more triangles, naming
// it and its faces: "<file>: non-manifold edge: the edge between vertices 1
// and 2 belongs to 3 faces (face 1 on line 7, face 2 on line 8, face 5 on
// line 11; 1 such edge); <purpose> needs at most two faces on an edge".
// Every mesh must pass this (cloth bending pairs the two triangles of an
// edge); open meshes are fine.
void requireManifoldEdges(const TriangleSurface& surface, std::string_view purpose);

// Throws AssetError unless the surface is a closed, consistently oriented
// 2-manifold, naming the first problem in this order: an edge in three or
// more faces (requireManifoldEdges); an edge in one face: "<file>: not a
// closed surface: the edge between vertices 4 and 9 (line 17) belongs to 1
// face (12 boundary, 0 non-manifold edges); <purpose> needs a closed
// surface"; a vertex where separate fans of faces meet ("non-manifold vertex:
// vertex 5 (line 6) joins 2 separate fans of faces ..."); two faces that run
// an edge in the same direction ("inconsistent orientation: faces 3 (line 9)
// and 4 (line 10) both run the edge from vertex 2 to vertex 3 ...").
void requireClosedSurface(const TriangleSurface& surface, std::string_view purpose);

// One line: "<file>: 512 vertices (1024 in the file, welded within 1.7e-06),
// 1024 triangles, 1536 edges (0 boundary, 0 non-manifold), closed, volume
// 0.394, bounds [-0.7, -0.2, -0.7] .. [0.7, 0.2, 0.7]".
std::string describeSurface(const TriangleSurface& surface);

}  // namespace vksim
