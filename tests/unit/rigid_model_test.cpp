// The rigid-body model (solvers/rigid/rigid_model.h) built from scene files: the
// "bodies" key, re-centring at the centre of mass, mass from density, and
// the rounds of body pairs.
#include <set>
#include <utility>

#include <gtest/gtest.h>

#include "geometry/shared_math.h"
#include "scene/scene_loader.h"
#include "solvers/model_builder.h"
#include "solvers/rigid/rigid_model.h"

namespace vksim {
namespace {

// Every pair of n bodies exactly once, no body twice in a round, n - 1
// rounds for even n and n for odd n.
TEST(RigidModel, PairRoundsCoverEveryPairOnce) {
    for (uint32_t n : {0u, 1u, 2u, 3u, 4u, 7u, 10u, 33u}) {
        std::vector<glm::uvec2> pairs;
        std::vector<uint32_t> starts;
        scheduleBodyPairs(n, pairs, starts);
        if (n < 2) {
            EXPECT_TRUE(pairs.empty());
            EXPECT_TRUE(starts.empty());
            continue;
        }
        EXPECT_EQ(starts.size() - 1, n % 2 == 0 ? n - 1 : n) << n;
        EXPECT_EQ(pairs.size(), size_t(n) * (n - 1) / 2) << n;
        std::set<std::pair<uint32_t, uint32_t>> seen;
        for (size_t r = 0; r + 1 < starts.size(); ++r) {
            std::set<uint32_t> inRound;
            for (uint32_t k = starts[r]; k < starts[r + 1]; ++k) {
                const glm::uvec2 p = pairs[k];
                EXPECT_LT(p.x, p.y);
                EXPECT_LT(p.y, n);
                EXPECT_TRUE(inRound.insert(p.x).second && inRound.insert(p.y).second) << "body twice in round " << r;
                EXPECT_TRUE(seen.insert({p.x, p.y}).second) << "pair twice";
            }
        }
    }
}

// A scene of bodies alone loads; the state's position is the centre of mass
// (the shape re-centred), the points are offsets from it, and density gives
// mass = density x volume.
TEST(RigidModel, BodiesAreRecentredAtTheirCentreOfMass) {
    const Scene scene = parseScene(R"({
        "bodies": [
            {"type": "box", "name": "b", "halfExtents": [0.5, 0.25, 0.125], "density": 1000,
             "position": [1, 2, 3], "rotation": {"axis": [0, 0, 1], "degrees": 90}},
            {"type": "mesh", "name": "t", "file": "../../assets/t_handle.obj", "mass": 2}
        ]})",
                                   std::filesystem::path(VKSIM_SOURCE_DIR) / "tests" / "unit" / "scene.json");
    ASSERT_EQ(scene.bodies.size(), 2u);
    EXPECT_TRUE(scene.cloths.empty());
    const SimModel model = buildModel(scene);
    const RigidModel& rigid = model.rigid;
    ASSERT_EQ(rigid.bodyCount(), 2u);
    EXPECT_NEAR(rigid.masses[0], 1000.0 * 1.0 * 0.5 * 0.25, 1e-9);
    // A box's centre of mass is its origin.
    EXPECT_NEAR(rigid.states[0].position.x, 1.0f, 1e-6f);
    EXPECT_NEAR(rigid.states[0].position.y, 2.0f, 1e-6f);
    // The T's centre of mass is off its shape origin along the stem (+Z in
    // the file): the state moved there, the points moved by the opposite.
    const glm::vec3 centre(rigid.states[1].position);
    EXPECT_GT(centre.z, 0.01f);
    EXPECT_NEAR(rigid.shapes[1].position.z, -centre.z, 1e-6f);
    // Each contact point is its surface vertex (shape frame) less the centre.
    ASSERT_EQ(rigid.surfaces[1].positions.size(), rigid.bodies[1].pointCount);
    for (uint32_t i = 0; i < rigid.bodies[1].pointCount; ++i) {
        const glm::vec3 point(rigid.points[rigid.bodies[1].firstPoint + i]);
        const glm::vec3 vertex = rigid.surfaces[1].positions[i];
        EXPECT_LT(glm::length(point - (vertex + glm::vec3(rigid.shapes[1].position))), 1e-6f) << i;
    }
    EXPECT_NEAR(rigid.masses[1], 2.0, 1e-12);
    // Two bodies: one round of one pair.
    EXPECT_EQ(rigid.pairs.size(), 1u);
    EXPECT_EQ(rigid.roundCount(), 1u);
}

}  // namespace
}  // namespace vksim
