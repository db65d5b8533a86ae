// Reading OBJ files (obj_loader.h) and turning them into welded surfaces
// with statistics (triangle_surface.h, mesh_weld.h), on the good files of
// tests/meshes/.
#include <gtest/gtest.h>

#include "../common/mesh_fixtures.h"
#include "io/asset_error.h"
#include "io/mesh_weld.h"
#include "io/obj_loader.h"
#include "io/triangle_surface.h"

namespace vksim::test {
namespace {

TEST(ObjLoader, ReadsQuadsRelativeIndicesAndCrlfAndIgnoresEverythingButGeometry) {
    const ObjMesh mesh = loadObj(meshCorpus("cube_quads.obj"));
    EXPECT_EQ(mesh.positions.size(), 8u);
    EXPECT_EQ(mesh.faceLines.size(), 6u);
    EXPECT_EQ(mesh.triangles.size(), 3u * 12);  // 6 quads as fans of 2
    EXPECT_EQ(mesh.faceLines.front(), 21u);
    // "f -5 -1 -2 -6" after 8 vertices is the face 4 8 7 3 (1-based).
    const std::size_t relative = 2 * 4;  // its first triangle
    EXPECT_EQ(mesh.triangles[3 * relative], 3u);
    EXPECT_EQ(mesh.triangles[3 * relative + 1], 7u);
    EXPECT_EQ(mesh.triangles[3 * relative + 2], 6u);
    EXPECT_EQ(mesh.triangleFaces[3 * 2 + 1], 3u);
    EXPECT_NE(mesh.source.hash, 0u);
}

TEST(TriangleSurface, ClosedCubeStatistics) {
    const TriangleSurface cube = loadTriangleSurface(meshCorpus("cube_quads.obj"));
    const SurfaceStatistics& s = cube.stats;
    std::cout << "[surface] " << describeSurface(cube) << "\n";
    EXPECT_EQ(s.fileVertices, 8u);
    EXPECT_EQ(s.vertices, 8u);
    EXPECT_EQ(s.triangles, 12u);
    EXPECT_EQ(s.edges, 18u);
    EXPECT_EQ(s.boundaryEdges, 0u);
    EXPECT_EQ(s.nonManifoldEdges, 0u);
    EXPECT_TRUE(s.closed());
    EXPECT_TRUE(s.consistentlyOriented);
    EXPECT_NEAR(s.signedVolume, 1.0, 1e-12);
    EXPECT_EQ(s.boundsMin, glm::dvec3(0.0));
    EXPECT_EQ(s.boundsMax, glm::dvec3(1.0));
    EXPECT_NO_THROW(requireClosedSurface(cube, "a test"));
}

// Two squares with their own copies of the shared edge, one copy 1e-7 off,
// and a vertex no face uses: welding joins the edge, the unused vertex goes.
TEST(TriangleSurface, WeldsDuplicatesAndDropsUnusedVertices) {
    const TriangleSurface sheet = loadTriangleSurface(meshCorpus("sheet_duplicates.obj"));
    const SurfaceStatistics& s = sheet.stats;
    std::cout << "[surface] " << describeSurface(sheet) << "\n";
    EXPECT_EQ(s.fileVertices, 9u);
    EXPECT_EQ(s.vertices, 6u);
    EXPECT_EQ(s.unusedVertices, 1u);
    EXPECT_EQ(s.triangles, 4u);
    EXPECT_EQ(s.edges, 9u);
    EXPECT_EQ(s.boundaryEdges, 6u);
    EXPECT_FALSE(s.closed());
    EXPECT_EQ(sheet.fileVertexToVertex[4], sheet.fileVertexToVertex[1]);  // (1, 0, 0) twice
    EXPECT_EQ(sheet.fileVertexToVertex[7], sheet.fileVertexToVertex[2]);  // (1, 1, 0) and (1.0000001, 1, 0)
    EXPECT_EQ(sheet.fileVertexToVertex[8], kDroppedVertex);
    EXPECT_THROW(requireClosedSurface(sheet, "a test"), AssetError);

    // With tolerance 0 only exact duplicates merge: the seam opens at the top.
    const TriangleSurface exact = loadTriangleSurface(meshCorpus("sheet_duplicates.obj"), 0.0);
    EXPECT_EQ(exact.stats.vertices, 7u);
    EXPECT_EQ(exact.stats.boundaryEdges, 8u);
}

TEST(MeshWeld, GreedyFirstKeptVertexWithinTolerance) {
    const std::vector<glm::dvec3> points = {{0, 0, 0}, {0.6, 0, 0}, {1.2, 0, 0}, {0.0, 0.0, 0.0}, {-0.0, 0.0, 0.0}};
    const WeldedVertices apart = weldVertices(points, 0.5);
    EXPECT_EQ(apart.positions.size(), 3u);  // 0.6 apart: nothing joins but the exact copies of the origin
    EXPECT_EQ(apart.remap, (std::vector<uint32_t>{0, 1, 2, 0, 0}));
    // Within 0.7: 0.6 joins 0; 1.2 is 0.6 from 0.6 but 0.6 was not kept, and
    // 1.2 from the origin, so it stays. No chaining.
    const WeldedVertices near = weldVertices(points, 0.7);
    EXPECT_EQ(near.remap, (std::vector<uint32_t>{0, 0, 1, 0, 0}));
    EXPECT_EQ(weldVertices(points, 0.0).positions.size(), 3u);  // -0 == +0
    EXPECT_THROW(weldVertices(points, -1.0), std::invalid_argument);
}

TEST(ObjLoader, IcosphereRoundTripsThroughText) {
    const Icosphere sphere = makeIcosphere(0.5, 2);
    const TriangleSurface surface = makeTriangleSurface(parseObj(sphere.obj(), "sphere.obj"), "sphere.obj");
    EXPECT_EQ(surface.stats.vertices, sphere.positions.size());
    EXPECT_EQ(surface.stats.triangles, 320u);
    EXPECT_TRUE(surface.stats.closed());
    EXPECT_TRUE(surface.stats.consistentlyOriented);
    EXPECT_GT(surface.stats.signedVolume, 0.0);  // wound outwards
}

}  // namespace
}  // namespace vksim::test
