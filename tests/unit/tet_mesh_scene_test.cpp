// "type": "tetMesh" objects: tetrahedra from TetGen .node/.ele files or from
// the tetgen program run on a closed OBJ surface, loaded with the scene and
// simulated with projective dynamics (model_builder.h appendSolid).
#include <cstdlib>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../common/mesh_fixtures.h"
#include "scene/scene_loader.h"
#include "sim/model_builder.h"
#include "sim/tet_mesh.h"

namespace vksim::test {
namespace {

TEST(TetMeshScene, NodeAndEleFilesBecomeAProjectiveDynamicsSolid) {
    ScratchFolder folder;
    for (const char* file : {"cube.node", "cube.ele"}) std::filesystem::copy_file(meshCorpus(file), folder / file);
    const Scene scene = parseScene(R"({ "objects": [ { "type": "tetMesh", "name": "block", "node": "cube.node",
        "ele": "cube.ele", "scale": 0.5, "position": [0, 1, 0], "mass": 2 } ] })",
                                   folder / "scene.json");
    ASSERT_EQ(scene.solids.size(), 1u);
    EXPECT_EQ(scene.solids[0].shape, SolidShape::Mesh);
    ASSERT_EQ(scene.assetLog.size(), 1u);
    std::cout << "[tet scene] " << scene.assetLog[0] << "\n";
    const SimModel model = buildModel(scene);
    EXPECT_EQ(model.pd.particleCount, 8u);
    EXPECT_EQ(model.pd.tetStrain.size(), 5u);
    EXPECT_EQ(model.triangleCount(), 12u);
    double mass = 0.0;
    for (const glm::vec4& x : model.positions) mass += 1.0 / x.w;
    EXPECT_NEAR(mass, 2.0, 1e-5);
    EXPECT_EQ(glm::vec3(model.positions[7]), glm::vec3(0.5f, 1.5f, 0.5f));  // corner (1, 1, 1) scaled and moved
}

TEST(TetMeshScene, ObjSurfaceThroughTetgen) {
    if (std::system("command -v tetgen > /dev/null 2>&1") != 0) GTEST_SKIP() << "tetgen is not installed";
    ScratchFolder folder;
    std::filesystem::copy_file(meshCorpus("cube_quads.obj"), folder / "cube.obj");
    const std::string json = R"({ "objects": [ { "type": "tetMesh", "file": "cube.obj",
        "tetgen": { "quality": 1.5, "maxVolume": 0.05 } } ] })";
    const Scene scene = parseScene(json, folder / "scene.json");
    for (const std::string& line : scene.assetLog) std::cout << "[tet scene] " << line << "\n";
    ASSERT_EQ(scene.assetLog.size(), 2u);
    EXPECT_NE(scene.assetLog[1].find("tetgen -pzQq1.5a0.05 ran in"), std::string::npos);
    EXPECT_GE(scene.solids[0].tetMesh->tets.size(), 20u);
    EXPECT_NO_THROW(buildModel(scene));
    const Scene again = parseScene(json, folder / "scene.json");
    EXPECT_NE(again.assetLog[1].find("loaded from cache"), std::string::npos) << again.assetLog[1];
}

TEST(TetMeshScene, SourcesAreCheckedWhereTheyAreNamed) {
    ScratchFolder folder;
    for (const char* file : {"cube.node", "cube.ele", "bad_inverted.ele", "open_cube.obj"})
        std::filesystem::copy_file(meshCorpus(file), folder / file);
    auto errorOf = [&](const std::string& object) {
        try {
            parseScene(fmt::format(R"({{ "objects": [ {} ] }})", object), folder / "scene.json");
        } catch (const SceneError& error) {
            return std::string(error.what());
        }
        return std::string("(no error)");
    };
    const std::string inverted = errorOf(R"({ "type": "tetMesh", "node": "cube.node", "ele": "bad_inverted.ele" })");
    EXPECT_NE(inverted.find("/objects/0/ele: "), std::string::npos) << inverted;
    EXPECT_NE(inverted.find("bad_inverted.ele: line 6: tetrahedron 4 (nodes 2, 6, 5, 8) is inverted"),
              std::string::npos)
        << inverted;
    EXPECT_NE(
        errorOf(R"({ "type": "tetMesh", "node": "cube.node" })").find(R"(/objects/0: missing required key "ele")"),
        std::string::npos);
    EXPECT_NE(errorOf(R"({ "type": "tetMesh", "node": "cube.node", "ele": "cube.ele", "tetgen": {} })")
                  .find(R"(/objects/0/tetgen: "tetgen" applies to "file")"),
              std::string::npos);
    EXPECT_NE(errorOf(R"({ "type": "tetMesh" })").find(R"(missing required key "file" (or "node" and "ele"))"),
              std::string::npos);
    const std::string open = errorOf(R"({ "type": "tetMesh", "file": "open_cube.obj" })");
    EXPECT_NE(open.find("/objects/0/file: "), std::string::npos) << open;
    EXPECT_NE(open.find("not a closed surface"), std::string::npos) << open;
    EXPECT_NE(open.find("tetgen needs a closed surface"), std::string::npos) << open;
    EXPECT_NE(errorOf(R"({ "type": "tetMesh", "file": "open_cube.obj", "tetgen": { "quality": 0.9 } })")
                  .find("/objects/0/tetgen/quality: expected a number > 1, got 0.9"),
              std::string::npos);
    EXPECT_NE(errorOf(R"({ "type": "tetMesh", "file": "open_cube.obj", "tetgen": { "minDihedral": 10 } })")
                  .find(R"(/objects/0/tetgen/minDihedral: "minDihedral" needs "quality")"),
              std::string::npos);
}

}  // namespace
}  // namespace vksim::test
