#pragma once
// Topology derived from a triangle list (3 vertex indices per triangle): the
// edges, which of them two triangles share (where bending acts), and the
// vertex -> triangle adjacency the normals pass gathers over. Generic: the
// cloth grid and cloths read from OBJ files (cloth_geometry.h) use it.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace vksim {

struct MeshEdge {
    uint32_t v0;  // v0 < v1
    uint32_t v1;
};

// An edge shared by exactly two triangles, oriented so that, when the mesh is
// consistently wound, the triangles are (v0, opposite0, v1) and
// (v0, v1, opposite1): the layout BendingConstraint expects.
struct InteriorEdge {
    uint32_t v0;
    uint32_t v1;
    uint32_t opposite0;
    uint32_t opposite1;
};

struct MeshEdges {
    std::vector<MeshEdge> edges;          // every distinct edge once, sorted by (v0, v1)
    std::vector<InteriorEdge> interior;   // in the same order
    uint32_t boundaryCount = 0;           // edges of one triangle
    uint32_t nonManifoldCount = 0;        // edges of three or more triangles: no bending across them
};

// docs/physics.md §6: emit (min, max, triangle) for every triangle edge and sort; runs
// of equal (min, max) are one edge, runs of two are interior edges.
// O(T log T) for T triangles.
MeshEdges findMeshEdges(std::span<const uint32_t> triangles);

// Per triangle, the triangle across each of its edges: [i] across the edge
// opposite its corner i; kNoTriangle on a border and where three or more
// triangles share the edge. O(T log T) for T triangles. Throws
// std::invalid_argument for a triangle that repeats a corner.
inline constexpr uint32_t kNoTriangle = 0xFFFFFFFFu;
std::vector<std::array<uint32_t, 3>> trianglesAcrossEdges(std::span<const uint32_t> triangles);

// CSR adjacency: the triangles around vertex v are
// triangles[offsets[v], offsets[v + 1]), in increasing triangle order.
struct VertexTriangles {
    std::vector<uint32_t> offsets;    // vertexCount + 1 entries
    std::vector<uint32_t> triangles;
};
VertexTriangles vertexTriangleAdjacency(std::span<const uint32_t> triangles, uint32_t vertexCount);

}  // namespace vksim
