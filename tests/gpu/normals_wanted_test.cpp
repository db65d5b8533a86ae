// Normals only when something reads them (World::setNormalsWanted): a frame
// without them records no normals pass, and the first frame after turning
// them back on leaves the same normals, bit for bit, as a world that
// computed them every frame (the pass depends only on the positions).
#include <cstring>

#include "gpu_harness.h"
#include "world/world.h"
#include "world_frames.h"

namespace vksim::test {
namespace {

class NormalsWanted : public GpuTest {};

TEST_F(NormalsWanted, OffRecordsNoPassAndOnAgainGivesTheSameNormals) {
    const Scene scene = clothScene({12, 10}, {1.0f, 1.0f}, 1.0f);
    World always(ctx(), scene, 1), sometimes(ctx(), scene, 1);
    EXPECT_TRUE(sometimes.normalsWanted());
    sometimes.setNormalsWanted(false);
    runWorldFrames(ctx(), always, 6);
    runWorldFrames(ctx(), sometimes, 5);
    EXPECT_TRUE(passRunsInLastFrame(always, "normals") > 0);
    EXPECT_FALSE(passRunsInLastFrame(sometimes, "normals") > 0);
    sometimes.setNormalsWanted(true);
    runWorldFrames(ctx(), sometimes, 1);
    EXPECT_TRUE(passRunsInLastFrame(sometimes, "normals") > 0);
    const auto a = always.normals().downloadArray<glm::vec4>();
    const auto b = sometimes.normals().downloadArray<glm::vec4>();
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec4)));
}

}  // namespace
}  // namespace vksim::test
