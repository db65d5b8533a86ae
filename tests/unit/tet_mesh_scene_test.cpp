// "type": "tetMesh" objects: tetrahedra from TetGen .node/.ele files or from
// the tetgen program run on a closed OBJ surface, loaded with the scene and
// simulated with projective dynamics (pd_model_builder.h appendPdSolid).
#include <cstdlib>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../common/mesh_fixtures.h"
#include "geometry/tet_mesh.h"
#include "scene/scene_loader.h"
#include "solvers/model_builder.h"
#include "solvers/pd/pd_reference.h"

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

// A bar read from TetGen files, pinned by a region around its -x end, is the
// same model as the tetBox with that face pinned; stepped by the PD
// reference it hangs: the pinned vertices never move, the free end sags a
// little and stops (no free fall).
TEST(TetMeshScene, PinnedRegionHoldsOneEndAndTheBarHangs) {
    ScratchFolder folder;
    const TetMesh bar = buildTetBox({1.0, 0.2, 0.2}, {5, 1, 1});
    writeTetGenFiles(bar.positions, bar.tets, folder / "bar");
    const std::string solver = R"("solver": { "substeps": 1, "pd": { "iterations": 10 } })";
    const Scene mesh = parseScene(fmt::format(R"({{ {}, "objects": [ {{ "type": "tetMesh", "node": "bar.node",
        "ele": "bar.ele", "position": [0, 1, 0], "mass": 2, "strain": {{ "stiffness": 1e6 }},
        "pinnedRegions": [ {{ "min": [-0.51, -1, -1], "max": [-0.49, 1, 1] }} ] }} ] }})",
                                              solver),
                                  folder / "mesh.json");
    const Scene box = parseScene(fmt::format(R"({{ {}, "objects": [ {{ "type": "tetBox", "size": [1, 0.2, 0.2],
        "cells": [5, 1, 1], "position": [0, 1, 0], "mass": 2, "strain": {{ "stiffness": 1e6 }},
        "pinnedFaces": ["-x"] }} ] }})",
                                             solver),
                                 folder / "box.json");
    EXPECT_EQ(mesh.solids[0].pinnedVertices.size(), 4u);
    const SimModel model = buildModel(mesh);
    const SimModel reference = buildModel(box);
    ASSERT_EQ(model.positions.size(), reference.positions.size());
    for (std::size_t i = 0; i < model.positions.size(); ++i)
        EXPECT_EQ(model.positions[i], reference.positions[i]) << "particle " << i;  // w: 0 where pinned

    PdReference sim(model);
    for (int frame = 0; frame < 60; ++frame) sim.step(mesh.solver);
    double tipDrop = 0.0;
    for (uint32_t i = 0; i < model.particleCount(); ++i) {
        const glm::dvec3 start(glm::vec3(model.positions[i]));
        if (model.positions[i].w == 0.0f) {
            EXPECT_EQ(sim.positions()[i], start) << "pinned particle " << i << " moved";
        }
        if (start.x > 0.49) tipDrop = std::max(tipDrop, start.y - sim.positions()[i].y);
    }
    std::cout << fmt::format("[tet mesh pins] 4 of {} vertices pinned; free end sags {:.4f} m in 1 s (free fall "
                             "4.9 m)\n",
                             model.particleCount(), tipDrop);
    EXPECT_GT(tipDrop, 1e-4);
    EXPECT_LT(tipDrop, 0.2);

    // A region with no vertex in it is an error naming the file's extent.
    try {
        parseScene(R"({ "objects": [ { "type": "tetMesh", "node": "bar.node", "ele": "bar.ele",
            "pinnedRegions": [ { "min": [2, 2, 2], "max": [3, 3, 3] } ] } ] })",
                   folder / "empty.json");
        ADD_FAILURE() << "an empty pinned region was accepted";
    } catch (const SceneError& error) {
        EXPECT_NE(std::string(error.what()).find("/objects/0/pinnedRegions/0: no vertex of "), std::string::npos)
            << error.what();
    }
}

}  // namespace
}  // namespace vksim::test
