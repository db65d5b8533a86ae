// The projective dynamics keys of the scene format (README "Scene files"):
// "method" on cloths, the tetBox and tetBall objects, "solver": {"pd": ...},
// and the shipped PD scenes load and build.
#include <gtest/gtest.h>

#include <filesystem>

#include "scene/scene_loader.h"
#include "solvers/model_builder.h"

namespace vksim {
namespace {

TEST(PdScene, ReadsMethodSolidsAndSolverSettings) {
    const Scene scene = parseScene(R"({
      "solver": { "substeps": 2, "pd": { "iterations": 7, "jacobiIterations": 33, "chebyshev": false,
                                         "spectralRadius": 0.95, "relaxation": "auto", "collisionWeight": 50 } },
      "objects": [
        { "type": "cloth", "method": "pd", "resolution": [4, 4],
          "stretch": { "stiffness": 300 }, "strain": { "stiffness": 20, "min": 0.9, "max": 1.1 },
          "bending": { "enabled": false } },
        { "type": "tetBox", "name": "bar", "size": [2, 0.5, 0.25], "cells": [8, 2, 1], "pinnedFaces": ["-x", "+y"],
          "pinsAsAttachments": true, "attachment": { "stiffness": 5e4 },
          "strain": { "stiffness": 2e5 }, "volume": { "stiffness": 1e5, "min": 0.95, "max": 1.05 } },
        { "type": "tetBall", "radius": 0.4, "cells": 5, "method": "pd", "velocity": [1, 0, 0] },
        { "type": "cloth", "resolution": [3, 3] }
      ]
    })",
                                   "pd.json");
    EXPECT_EQ(scene.solver.pd.localIterations, 7u);
    EXPECT_EQ(scene.solver.pd.jacobiIterations, 33u);
    EXPECT_FALSE(scene.solver.pd.chebyshev);
    EXPECT_FLOAT_EQ(scene.solver.pd.spectralRadius, 0.95f);
    EXPECT_EQ(scene.solver.pd.relaxation, 0.0f);  // auto
    EXPECT_FLOAT_EQ(scene.solver.pd.collisionWeight, 50.0f);
    ASSERT_EQ(scene.cloths.size(), 2u);
    EXPECT_EQ(scene.cloths[0].method, SolverMethod::Pd);
    EXPECT_FLOAT_EQ(scene.cloths[0].pd.stretch.stiffness, 300.0f);
    EXPECT_TRUE(scene.cloths[0].pd.strain.enabled);
    EXPECT_FLOAT_EQ(scene.cloths[0].pd.strain.rangeMin, 0.9f);
    EXPECT_FALSE(scene.cloths[0].pd.bending.enabled);
    EXPECT_EQ(scene.cloths[1].method, SolverMethod::Pbd);
    ASSERT_EQ(scene.solids.size(), 2u);
    EXPECT_EQ(scene.solids[0].shape, SolidShape::Box);
    EXPECT_EQ(scene.solids[0].cells, glm::uvec3(8, 2, 1));
    EXPECT_EQ(scene.solids[0].pinnedFaces, (std::vector<BoxFace>{BoxFace::MinusX, BoxFace::PlusY}));
    EXPECT_TRUE(scene.solids[0].volume.enabled);
    EXPECT_FLOAT_EQ(scene.solids[0].volume.rangeMax, 1.05f);
    EXPECT_EQ(scene.solids[1].shape, SolidShape::Ball);
    EXPECT_EQ(scene.solids[1].name, "tetBall2");
    EXPECT_EQ(scene.solids[1].cellsAcross, 5u);

    // PBD cloth first, then the PD cloth, the box and the ball.
    const SimModel model = buildModel(scene);
    EXPECT_EQ(model.pbd.particleCount, 9u);
    EXPECT_EQ(model.pd.particleCount, 16u + 9u * 3u * 2u + 6u * 6u * 6u);
    EXPECT_EQ(model.objects[0].name, "cloth3");
    EXPECT_FALSE(model.pd.attachments.empty());
}

TEST(PdScene, NamesAreUniqueAcrossObjectTypes) {
    try {
        parseScene(R"({"objects": [{"type": "cloth", "name": "a"}, {"type": "tetBall", "name": "a"}]})", "x.json");
        FAIL() << "accepted";
    } catch (const SceneError& e) {
        EXPECT_NE(std::string(e.what()).find("/objects/1/name: duplicate name \"a\" (already used by /objects/0)"),
                  std::string::npos)
            << e.what();
    }
}

TEST(PdScene, ShippedPdScenesLoadAndBuild) {
    int found = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(VKSIM_SOURCE_DIR) + "/scenes")) {
        if (!entry.path().filename().string().starts_with("pd_")) continue;
        ++found;
        const Scene scene = loadScene(entry.path());
        const SimModel model = buildModel(scene);
        EXPECT_FALSE(model.pd.empty()) << entry.path();
    }
    EXPECT_GE(found, 4);
}

}  // namespace
}  // namespace vksim
