// The tearing rule on the CPU (solvers/pbd/pbd_tearing.h; docs/physics.md
// §1, "Tearing"): the scene key read into the model's per-row strains, and
// tearReference on two triangles sharing an edge, at strains just below and
// just above the threshold; which triangles leave the surface, with and
// without splitting; a broken constraint moves nothing in the shared
// projections.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "geometry/shared_math.h"
#include "scene/scene_loader.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_tearing.h"
#include "solvers/sim_model.h"

namespace vksim {
namespace {

TEST(TearingRule, SceneKeySetsTheStretchRowOnly) {
    const Scene scene = parseScene(R"({ "objects": [ { "type": "cloth", "resolution": [3, 3] },
        { "type": "cloth", "resolution": [3, 3], "tearing": { "strain": 0.25 } } ] })",
                                   "inline/tearing.json");
    ASSERT_TRUE(scene.cloths[1].tearing.enabled);
    EXPECT_FLOAT_EQ(scene.cloths[1].tearing.strain, 0.25f);
    EXPECT_FALSE(scene.cloths[0].tearing.enabled);
    const SimModel model = buildModel(scene);
    EXPECT_EQ(model.pbd.tearStrains, (std::vector<float>{0, 0, 0, 0.25f, 0, 0}));
    EXPECT_TRUE(PbdTearing::anyTears(model.pbd));
}

// Triangles (0, 1, 2) and (0, 2, 3) of the unit square share the diagonal
// 0-2 (rest sqrt 2); stretch constraints on all five edges, one bending
// constraint on the diagonal. Vertex 2 moved out along the diagonal to
// strain it by s -/+ 1e-6: below, nothing breaks; above, the diagonal (and
// the edges 1-2, 2-3, strained more) break, the bending constraint with
// them, and both triangles leave the surface.
TEST(TearingRule, BreaksPastTheThresholdWithItsHingeAndTriangles) {
    constexpr float kStrain = 0.5f;
    const std::vector<std::pair<uint32_t, uint32_t>> edges = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}};
    const std::vector<glm::dvec3> rest = {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}};
    for (double excess : {-1e-6, 1e-6}) {
        std::vector<gpu::DistanceConstraint> distance;
        for (auto [a, b] : edges)
            distance.push_back({a, b, static_cast<float>(glm::length(rest[a] - rest[b])), 0});
        std::vector<gpu::BendingConstraint> bending = {{{0, 2, 1, 3}, glm::vec4(1), 2.0f, 1, 0, 0}};
        std::vector<uint32_t> triangles = {0, 1, 2, 0, 2, 3};
        std::vector<glm::dvec3> x = rest;
        x[2] = glm::dvec3(1.0, 0.0, 1.0) * (1.0 + kStrain + excess);
        const std::vector<glm::uvec4> triangleEdges = {{0, 0, 1, 4}, {1, 4, 2, 3}};
        const uint32_t broke =
            tearReference(distance, bending, triangles, x, {kStrain, 0.0f, 0.0f}, {4}, triangleEdges);
        if (excess < 0) {
            EXPECT_EQ(broke, 2u);  // 1-2 and 2-3, strained past 0.5 more than the diagonal
            EXPECT_GT(distance[4].restLength, 0.0f);
            EXPECT_GT(bending[0].scale, 0.0f);
        } else {
            EXPECT_EQ(broke, 3u);
            EXPECT_LT(distance[4].restLength, 0.0f);
            EXPECT_FLOAT_EQ(distance[4].restLength, -std::sqrt(2.0f));
            EXPECT_FLOAT_EQ(bending[0].scale, -2.0f);
        }
        // Either way 1-2 broke, an edge of both triangles: both dropped.
        EXPECT_EQ(triangles, (std::vector<uint32_t>{0, 0, 0, 0, 0, 0}));
    }
}

// The same two triangles with some edges broken (rest length negated): a
// triangle of a cloth without a capacity leaves the surface at one broken
// edge; one of a cloth that splits vertices (kTearSplitTriangle) keeps it,
// held by its two whole edges, and leaves at two, when its third corner
// hangs on nothing.
TEST(TearingRule, ASplittingClothDropsATriangleAtTwoBrokenEdges) {
    const std::vector<std::pair<uint32_t, uint32_t>> edges = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}};
    const auto surface = [&](std::vector<uint32_t> broken, bool splits) {
        std::vector<gpu::DistanceConstraint> distance;
        for (auto [a, b] : edges) distance.push_back({a, b, 1.0f, 0});
        for (uint32_t j : broken) distance[j].restLength = -1.0f;
        const uint32_t flag = splits ? gpu::kTearSplitTriangle : 0u;
        std::vector<uint32_t> triangles = {0, 1, 2, 0, 2, 3};
        dropTornTriangles(triangles, distance, {{0 | flag, 0, 1, 4}, {1 | flag, 4, 2, 3}});
        return triangles;
    };
    EXPECT_EQ(surface({1}, false), (std::vector<uint32_t>{0, 0, 0, 0, 2, 3}));
    EXPECT_EQ(surface({1}, true), (std::vector<uint32_t>{0, 1, 2, 0, 2, 3}));
    EXPECT_EQ(surface({1, 4}, false), (std::vector<uint32_t>{0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(surface({1, 4}, true), (std::vector<uint32_t>{0, 0, 0, 0, 2, 3}));
}

TEST(TearingRule, BrokenConstraintsProjectNothing) {
    const ref::PairCorrection d =
        ref::solveDistance(glm::dvec3(0), 1.0, glm::dvec3(2, 0, 0), 1.0, -1.0, gpu::kModePbd, 1.0, 0.0, 0.01, 0.0);
    EXPECT_EQ(d.dp0, glm::dvec3(0));
    EXPECT_EQ(d.dp1, glm::dvec3(0));
    const ref::QuadCorrection b = ref::solveIsometricBending(
        glm::dvec3(0), 1.0, glm::dvec3(1, 0, 0), 1.0, glm::dvec3(0.5, 1, 0.5), 1.0, glm::dvec3(0.5, 0, -0.5), 1.0,
        glm::dvec4(1, 1, -1, -1), -2.0, gpu::kModePbd, 1.0, 0.0, 0.01, 0.0);
    EXPECT_EQ(b.dp2, glm::dvec3(0));
    EXPECT_EQ(b.dLambda, 0.0);
}

}  // namespace
}  // namespace vksim
