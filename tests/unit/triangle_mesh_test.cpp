// geometry/triangle_mesh.h: the triangle across each edge of a triangle
// (trianglesAcrossEdges), which the vertex-triangle contacts read
// (ContactModel::triangleNeighbours).
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "geometry/triangle_mesh.h"

namespace vksim {
namespace {

using Across = std::array<uint32_t, 3>;

// A quad of two triangles: each is across the other's diagonal, the edge
// opposite the corner it does not share; the other four edges are borders.
TEST(TriangleMesh, TwoTrianglesAreAcrossTheirSharedEdge) {
    const std::vector<uint32_t> quad = {0, 1, 2, 2, 1, 3};
    const std::vector<Across> across = trianglesAcrossEdges(quad);
    ASSERT_EQ(across.size(), 2u);
    EXPECT_EQ(across[0], (Across{1, kNoTriangle, kNoTriangle}));  // edge 1-2, opposite its corner 0 (vertex 0)
    EXPECT_EQ(across[1], (Across{kNoTriangle, kNoTriangle, 0}));  // edge 2-1, opposite its corner 2 (vertex 3)
}

// Three triangles on one edge (not a manifold there): none is across it
// from another; their other edges are borders.
TEST(TriangleMesh, AnEdgeOfThreeTrianglesHasNoneAcross) {
    const std::vector<uint32_t> fan = {0, 1, 2, 1, 0, 3, 0, 1, 4};
    for (const Across& across : trianglesAcrossEdges(fan))
        EXPECT_EQ(across, (Across{kNoTriangle, kNoTriangle, kNoTriangle}));
}

TEST(TriangleMesh, ATriangleThatRepeatsACornerIsRefused) {
    const std::vector<uint32_t> repeated = {0, 1, 2, 2, 2, 1};
    EXPECT_THROW(trianglesAcrossEdges(repeated), std::invalid_argument);
    const std::vector<uint32_t> partial = {0, 1};
    EXPECT_THROW(trianglesAcrossEdges(partial), std::invalid_argument);
}

}  // namespace
}  // namespace vksim
