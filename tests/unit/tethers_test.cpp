// Tethers' anchors and rest distances (model/tethers.h; docs/physics.md §1,
// "Tethers"): geodesic distances along a triangulated grid against their
// closed form, the nearest pin by either distance, and the attachments the
// PBD builder makes of them.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include <fmt/format.h>

#include "cloth_scenes.h"
#include "model/tethers.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/model_builder.h"
#include "solvers/model_summary.h"

namespace vksim {
namespace {

// An n x n grid of spacing s in the XZ plane, each quad split along its
// diagonal from (i, j) to (i + 1, j + 1).
struct Grid {
    uint32_t n;
    double s;
    std::vector<glm::dvec3> positions;
    std::vector<uint32_t> triangles;
    uint32_t at(uint32_t i, uint32_t j) const { return j * n + i; }
};

Grid grid(uint32_t n, double s) {
    Grid g{n, s, {}, {}};
    for (uint32_t j = 0; j < n; ++j)
        for (uint32_t i = 0; i < n; ++i) g.positions.emplace_back(i * s, 0.0, j * s);
    for (uint32_t j = 0; j + 1 < n; ++j)
        for (uint32_t i = 0; i + 1 < n; ++i) {
            const uint32_t a = g.at(i, j), b = g.at(i + 1, j), c = g.at(i + 1, j + 1), d = g.at(i, j + 1);
            g.triangles.insert(g.triangles.end(), {a, b, c, a, c, d});
        }
    return g;
}

// From (i0, j0), a step along an edge goes one column, one row, or one of
// each the diagonals' way ((+1, +1) or (-1, -1)). So to (i, j) with
// di = i - i0, dj = j - j0 of the same sign the shortest path takes
// min(|di|, |dj|) diagonals and the rest straight; of opposite signs no
// diagonal helps: |di| + |dj| straight steps.
double closedForm(int di, int dj, double s) {
    if ((di >= 0) == (dj >= 0) || di == 0 || dj == 0)
        return s * (std::sqrt(2.0) * std::min(std::abs(di), std::abs(dj)) + std::abs(std::abs(di) - std::abs(dj)));
    return s * (std::abs(di) + std::abs(dj));
}

TEST(TetherBuilder, GeodesicDistancesOfAGridMatchTheClosedForm) {
    const Grid g = grid(7, 0.25);
    std::vector<bool> source(g.positions.size(), false);
    source[g.at(3, 2)] = true;
    const GeodesicField field = geodesicDistances(g.positions, g.triangles, source);
    double worst = 0.0;
    for (uint32_t j = 0; j < g.n; ++j)
        for (uint32_t i = 0; i < g.n; ++i) {
            const double expected = closedForm(int(i) - 3, int(j) - 2, g.s);
            worst = std::max(worst, std::abs(field.distance[g.at(i, j)] - expected));
            EXPECT_EQ(field.source[g.at(i, j)], g.at(3, 2));
        }
    std::cout << fmt::format("[tethers] geodesic distances on a 7 x 7 grid: largest error {:.2e} m\n", worst);
    // Sums of at most 12 edge lengths in double.
    EXPECT_LT(worst, 1e-14);
    // The corner (6, 6) is 3 diagonals and 1 step from (3, 2); (0, 6), 7 steps.
    EXPECT_NEAR(field.distance[g.at(6, 6)], 0.25 * (3 * std::sqrt(2.0) + 1), 1e-15);
    EXPECT_NEAR(field.distance[g.at(0, 6)], 0.25 * 7, 1e-15);
}

TEST(TetherBuilder, EachFreeVertexGetsItsNearestPinByEitherDistance) {
    const Grid g = grid(5, 0.125);  // exact in binary, so that equal distances tie exactly
    std::vector<bool> pinned(g.positions.size(), false);
    pinned[g.at(0, 0)] = pinned[g.at(4, 0)] = true;
    for (TetherMode mode : {TetherMode::Euclidean, TetherMode::Geodesic}) {
        const std::vector<TetherAnchor> tethers = findTetherAnchors(g.positions, g.triangles, pinned, mode);
        ASSERT_EQ(tethers.size(), g.positions.size() - 2);
        for (const TetherAnchor& t : tethers) {
            const int i = int(t.vertex % g.n), j = int(t.vertex / g.n);
            const double toLeft = mode == TetherMode::Euclidean ? g.s * std::hypot(i, j) : closedForm(i, j, g.s);
            const double toRight =
                mode == TetherMode::Euclidean ? g.s * std::hypot(i - 4, j) : closedForm(i - 4, j, g.s);
            // Ties go to the lower vertex index: the pin at (0, 0).
            const bool left = toLeft <= toRight;
            EXPECT_EQ(t.anchor, left ? g.at(0, 0) : g.at(4, 0)) << i << ", " << j;
            EXPECT_NEAR(t.restDistance, std::min(toLeft, toRight), 1e-15) << i << ", " << j;
        }
    }
    // A vertex no edge joins to a pin has no geodesic tether, but a Euclidean one.
    Grid apart = g;
    apart.positions.emplace_back(1.0, 0.0, 0.0);
    pinned.push_back(false);
    EXPECT_EQ(findTetherAnchors(apart.positions, apart.triangles, pinned, TetherMode::Geodesic).size(),
              g.positions.size() - 2);
    EXPECT_EQ(findTetherAnchors(apart.positions, apart.triangles, pinned, TetherMode::Euclidean).size(),
              g.positions.size() - 1);
}

// A 0.5 x 2 m cloth pinned along row 0 gives each free vertex a tether of
// length (1 + slack) times its distance to the pin in its column, in the
// attachment family and its material.
TEST(TetherBuilder, TheBuilderMakesAttachmentsOfTheirLength) {
    Scene scene = test::clothScene({5, 9}, {0.5f, 2.0f});
    ClothObject& cloth = scene.cloths[0];
    for (uint32_t c = 0; c < 5; ++c) cloth.pinned.push_back({c, 0});
    cloth.tethers = {TetherMode::Geodesic, 0.1f};
    const SimModel model = buildModel(scene);
    ASSERT_EQ(model.pbd.attachments.size(), 5u * 8u);
    ASSERT_EQ(model.pbd.attachmentGroups.colours.size(), 1u);  // one tether a particle: one colour
    for (const gpu::AttachmentConstraint& a : model.pbd.attachments) {
        const uint32_t column = a.particle % 5, row = a.particle / 5;
        EXPECT_EQ(glm::vec3(a.target), glm::vec3(model.positions[column]));
        EXPECT_NEAR(a.maxDistance, 1.1 * row * 0.25, 1e-6);
        EXPECT_EQ(a.material, materialIndex(0, ConstraintFamily::Attachment));
    }
    EXPECT_NE(describeModel(model, {}).find("of which 40 tethers"), std::string::npos) << describeModel(model, {});
    cloth.tethers.mode = TetherMode::Off;
    EXPECT_TRUE(buildModel(scene).pbd.attachments.empty());
}

}  // namespace
}  // namespace vksim
