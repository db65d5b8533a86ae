// TetGen .node/.ele files (tetgen_io.h): the good cube of tests/meshes/,
// both numberings, 10-node elements, unused points, and the round trip of
// what the cache writes.
#include <gtest/gtest.h>

#include "../common/mesh_fixtures.h"
#include "io/asset_error.h"
#include "io/tetgen_io.h"

namespace vksim::test {
namespace {

double totalVolume(const TetMesh& mesh) {
    double volume = 0.0;
    for (const glm::uvec4& t : mesh.tets)
        volume += tetVolume(mesh.positions[t.x], mesh.positions[t.y], mesh.positions[t.z], mesh.positions[t.w]);
    return volume;
}

TEST(TetGenIo, ReadsTheCubeNumberedFromOne) {
    const TetMesh cube = loadTetGen(meshCorpus("cube.node"), meshCorpus("cube.ele"));
    std::cout << "[tetgen] " << describeTetMesh("cube", cube) << "\n";
    EXPECT_EQ(cube.positions.size(), 8u);
    EXPECT_EQ(cube.tets.size(), 5u);
    EXPECT_EQ(cube.surface.size(), 3u * 12);  // 2 triangles per face of the cube
    EXPECT_NEAR(totalVolume(cube), 1.0, 1e-15);
    EXPECT_EQ(cube.tets[0], glm::uvec4(1, 2, 4, 7));  // "2 3 5 8" from 1
}

TEST(TetGenIo, FormatRoundTripsExactlyAndNumbersFromZero) {
    const TetMesh cube = loadTetGen(meshCorpus("cube.node"), meshCorpus("cube.ele"));
    TetMesh moved = cube;
    for (glm::dvec3& p : moved.positions) p = p * 0.1 + glm::dvec3(1.0 / 3.0, -2.0 / 7.0, 1e-9);
    const std::string node = formatTetGenNode(moved, "a comment"), ele = formatTetGenEle(moved, "a comment");
    EXPECT_EQ(node.substr(0, 14), "# a comment\n8 ");
    const TetMesh back = parseTetGen(node, "moved.node", ele, "moved.ele");
    EXPECT_EQ(back.positions, moved.positions);  // 17 significant digits: exact
    EXPECT_EQ(back.tets, moved.tets);
}

TEST(TetGenIo, TenNodeElementsAttributesMarkersAndUnusedPoints) {
    // Point 5 is used by no tetrahedron: dropped. Second-order nodes are
    // read and ignored; attributes and markers are allowed.
    const std::string node = "6 3 1 1\n0 0 0 0 7 1\n1 1 0 0 7 1\n2 0 1 0 7 1\n3 0 0 1 7 1\n4 9 9 9 7 0\n5 1 1 1 7 0\n";
    const std::string ele = "1 10 1\n0 0 1 2 3 4 4 4 4 4 4 2.5\n";
    const TetMesh tet = parseTetGen(node, "t.node", ele, "t.ele");
    EXPECT_EQ(tet.positions.size(), 4u);
    EXPECT_EQ(tet.surface.size(), 12u);
    EXPECT_NEAR(totalVolume(tet), 1.0 / 6.0, 1e-15);
}

TEST(TetGenIo, MessagesNameLineAndElement) {
    const std::string node = "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n";
    auto errorOf = [&](const std::string& ele) {
        try {
            parseTetGen(node, "t.node", ele, "t.ele");
        } catch (const AssetError& error) {
            return std::string(error.what());
        }
        return std::string("(no error)");
    };
    EXPECT_EQ(errorOf("1 4 0\n0 0 1 2\n"), "t.ele: line 2: tetrahedron 0 has 4 fields; expected 5 (index, 4 nodes)");
    EXPECT_EQ(errorOf("2 4 0\n0 0 1 2 3\n"), "t.ele: the header promises 2 tetrahedra, the file ends after 1");
    EXPECT_EQ(errorOf("1 4 0\n0 0 1 2 3\n1 0 1 2 3\n"),
              "t.ele: line 3: more than the 1 tetrahedra the header promises");
    EXPECT_EQ(errorOf("1 4 0\n0 0 2 1 3  # swapped\n"),
              "t.ele: line 2: tetrahedron 0 (nodes 0, 2, 1, 3) is inverted (volume -0.167; expected det[b-a, c-a, "
              "d-a] > 0)");
    EXPECT_EQ(errorOf("1 4 0\n0 0 1 2 -3\n"),
              "t.ele: line 2: tetrahedron 0 uses node -3, but t.node has points 0 to 3");
    EXPECT_EQ(errorOf("99999999999 4 0\n"),
              "t.ele: line 1: the number of tetrahedra is 99999999999; expected 1 to 268435456");
}

}  // namespace
}  // namespace vksim::test
