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

// Topology checks beyond closedness: non-manifold edges (every use),
// non-manifold vertices and inconsistent winding (closed uses only).
TEST(TriangleSurface, ManifoldChecksNameTheEdgeVertexAndFaces) {
    // Two cloth triangles touching at a vertex: fine for a cloth, not closed.
    const TriangleSurface bowtie = loadTriangleSurface(meshCorpus("bowtie_sheet.obj"));
    std::cout << "[surface] " << describeSurface(bowtie) << "\n";
    EXPECT_EQ(bowtie.stats.nonManifoldVertices, 1u);
    ASSERT_TRUE(bowtie.stats.firstNonManifoldVertex);
    EXPECT_EQ(bowtie.stats.firstNonManifoldVertex->fileVertex, 2u);
    EXPECT_EQ(bowtie.stats.firstNonManifoldVertex->line, 4u);
    EXPECT_NO_THROW(requireManifoldEdges(bowtie, "a cloth"));
    EXPECT_THROW(requireClosedSurface(bowtie, "a test"), AssetError);

    // A fin: an edge in three faces, refused for a cloth too.
    const TriangleSurface fin = loadTriangleSurface(meshCorpus("bad_cloth_fin.obj"));
    EXPECT_EQ(fin.stats.nonManifoldEdges, 1u);
    ASSERT_TRUE(fin.stats.firstNonManifoldEdge);
    EXPECT_EQ(fin.stats.firstNonManifoldEdge->sharedBy.size(), 3u);
    EXPECT_THROW(requireManifoldEdges(fin, "a cloth"), AssetError);

    // Two tetrahedra sharing a vertex: closed, every edge in two faces.
    const TriangleSurface touching = loadTriangleSurface(meshCorpus("bad_nonmanifold_vertex.obj"));
    EXPECT_TRUE(touching.stats.closed());
    EXPECT_TRUE(touching.stats.consistentlyOriented);
    EXPECT_EQ(touching.stats.nonManifoldVertices, 1u);
    ASSERT_TRUE(touching.stats.firstNonManifoldVertex);
    EXPECT_EQ(touching.stats.firstNonManifoldVertex->fans.size(), 2u);

    // One face flipped: closed and manifold, three edges run twice one way.
    const TriangleSurface flipped = loadTriangleSurface(meshCorpus("bad_flipped_face.obj"));
    EXPECT_TRUE(flipped.stats.closed());
    EXPECT_FALSE(flipped.stats.consistentlyOriented);
    EXPECT_EQ(flipped.stats.misorientedEdges, 3u);
    EXPECT_EQ(flipped.stats.nonManifoldVertices, 0u);

    // The good closed meshes pass every check: the corpus and the shipped assets.
    for (const char* file : {"cube_quads.obj", "tetrahedron.obj"}) {
        const TriangleSurface good = loadTriangleSurface(meshCorpus(file));
        EXPECT_EQ(good.stats.misorientedEdges + good.stats.nonManifoldVertices, 0u) << file;
        EXPECT_NO_THROW(requireClosedSurface(good, "a test")) << file;
    }
    for (const char* asset : {"assets/torus.obj", "assets/gingerbread.obj"}) {
        const TriangleSurface good = loadTriangleSurface(std::string(VKSIM_SOURCE_DIR) + "/" + asset);
        EXPECT_NO_THROW(requireClosedSurface(good, "a test")) << asset;
    }
    const TriangleSurface flag = loadTriangleSurface(std::string(VKSIM_SOURCE_DIR) + "/assets/flag.obj");
    EXPECT_NO_THROW(requireManifoldEdges(flag, "a cloth"));
    EXPECT_EQ(flag.stats.nonManifoldVertices, 0u);
}

// Polygons become fans around their first corner: fine for convex ones and
// for non-convex ones seen whole from that corner; any other is refused.
TEST(ObjLoader, PolygonFansMustNotFoldOver) {
    // An L-shaped hexagon (reflex corner at vertex 4), star-shaped from vertex 1.
    const std::string lShape = "v 0 0 0\nv 2 0 0\nv 2 1 0\nv 1 1 0\nv 1 2 0\nv 0 2 0\nf 1 2 3 4 5 6\n";
    const TriangleSurface l = makeTriangleSurface(parseObj(lShape, "l.obj"), "l.obj");
    EXPECT_EQ(l.stats.triangles, 4u);
    EXPECT_NEAR(std::abs(l.stats.signedVolume), 0.0, 1e-12);  // flat
    double area = 0.0;
    for (std::size_t i = 0; i < l.triangles.size(); i += 3)
        area += 0.5 * glm::cross(l.positions[l.triangles[i + 1]] - l.positions[l.triangles[i]],
                                 l.positions[l.triangles[i + 2]] - l.positions[l.triangles[i]]).z;
    EXPECT_NEAR(area, 3.0, 1e-12);  // every triangle wound as the polygon, covering it once

    // The same hexagon started at vertex 5: the fan around it folds over.
    const std::string folded = "v 0 0 0\nv 2 0 0\nv 2 1 0\nv 1 1 0\nv 1 2 0\nv 0 2 0\nf 3 4 5 6 1 2\n";
    try {
        parseObj(folded, "folded.obj");
        ADD_FAILURE() << "a folding fan was accepted";
    } catch (const AssetError& e) {
        std::cout << "[polygon] " << e.what() << "\n";
        EXPECT_NE(std::string(e.what()).find("folded.obj: line 7: face 1 is not convex, and its fan around vertex 3 "
                                             "folds over"),
                  std::string::npos)
            << e.what();
    }
    // A warped (non-planar) quad is two fine triangles; a pentagram winds twice.
    EXPECT_NO_THROW(parseObj("v 0 0 0\nv 1 0 0.2\nv 1 1 0\nv 0 1 0.2\nf 1 2 3 4\n", "warped.obj"));
    const std::string star = "v 1 0 0\nv 0.309 0.951 0\nv -0.809 0.588 0\nv -0.809 -0.588 0\nv 0.309 -0.951 0\n"
                             "f 1 3 5 2 4\n";
    EXPECT_THROW(parseObj(star, "star.obj"), AssetError);
    // A bow-tie quad has no area.
    EXPECT_THROW(parseObj("v 0 0 0\nv 1 1 0\nv 1 0 0\nv 0 1 0\nf 1 2 3 4\n", "bowtie.obj"), AssetError);
}

}  // namespace
}  // namespace vksim::test
