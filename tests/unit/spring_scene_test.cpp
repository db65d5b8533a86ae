// Mass-spring scenes: "method": "springs" objects and the solver's "springs"
// settings read from JSON (scene/scene_loader.h), defaults and every key, and
// the shipped springs scenes load and build. The malformed ones are in
// tests/bad_scenes/springs_*.json.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <string>

#include "../common/mesh_fixtures.h"
#include "scene/scene_loader.h"
#include "solvers/model_builder.h"

namespace vksim {
namespace {

namespace fs = std::filesystem;
const fs::path kSpringScenesDir = fs::path(VKSIM_SOURCE_DIR) / "scenes";

TEST(SpringScene, DefaultsOfSceneH) {
    const Scene scene = parseScene(R"({"objects": [{"type": "cloth", "method": "springs"}]})", "springs.json");
    const SpringSettings settings;
    EXPECT_EQ(scene.solver.springs.integrator, settings.integrator);
    EXPECT_EQ(scene.solver.springs.newtonIterations, settings.newtonIterations);
    ASSERT_EQ(scene.cloths.size(), 1u);
    const ClothObject& cloth = scene.cloths[0];
    EXPECT_EQ(cloth.method, SolverMethod::Springs);
    const SpringClothParams defaults;
    EXPECT_EQ(cloth.springs.topology, SpringTopology::Grid);
    EXPECT_EQ(cloth.springs.shearDiagonals, defaults.shearDiagonals);
    EXPECT_EQ(cloth.springs.stretch, defaults.stretch);
    EXPECT_EQ(cloth.springs.bending, defaults.bending);
    EXPECT_EQ(cloth.springs.slack, defaults.slack);
}

TEST(SpringScene, ReadsEveryKey) {
    const Scene scene = parseScene(R"({
      "solver": { "springs": { "integrator": "vbd", "newtonIterations": 5, "jacobiIterations": 60,
                               "chebyshev": false, "lineSearch": true, "vbdIterations": 12 } },
      "objects": [ { "type": "cloth", "method": "springs", "resolution": [5, 4],
                     "springs": { "topology": "grid", "shearDiagonals": 1, "stretch": 900, "shear": 80,
                                  "bending": { "model": "quadratic", "stiffness": 0.02 },
                                  "compressionScale": 0.25, "slack": 0.1 }, "drag": 0.01 } ]
    })",
                                   "springs.json");
    const SpringSettings& s = scene.solver.springs;
    EXPECT_EQ(s.integrator, SpringIntegrator::Vbd);
    EXPECT_EQ(s.newtonIterations, 5u);
    EXPECT_EQ(s.jacobiIterations, 60u);
    EXPECT_FALSE(s.chebyshev);
    EXPECT_TRUE(s.lineSearch);
    EXPECT_EQ(s.vbdIterations, 12u);
    const SpringClothParams& p = scene.cloths.at(0).springs;
    EXPECT_EQ(p.topology, SpringTopology::Grid);
    EXPECT_EQ(p.shearDiagonals, 1u);
    EXPECT_EQ(p.stretch, 900.0f);
    EXPECT_EQ(p.shear, 80.0f);
    EXPECT_EQ(p.bending, SpringBending::Quadratic);
    EXPECT_EQ(p.bendingStiffness, 0.02f);
    EXPECT_EQ(p.drag, 0.01f);
    EXPECT_EQ(p.compressionScale, 0.25f);
    EXPECT_EQ(p.slack, 0.1f);

    const SimModel model = buildModel(scene);
    EXPECT_EQ(model.springs.particleCount, 20u);
    EXPECT_EQ(model.springs.objects.at(0).counts.shearSprings, 12u);
}

TEST(SpringScene, DihedralBendingIsFineWithExplicitIntegrators) {
    for (const char* integrator : {"explicitEuler", "symplecticEuler", "positionVerlet", "velocityVerlet", "midpoint"}) {
        const Scene scene = parseScene(
            fmt::format(R"({{"solver": {{"springs": {{"integrator": "{}"}}}},
                "objects": [{{"type": "cloth", "method": "springs", "springs": {{"bending": {{"model": "dihedral"}}}}}}]}})",
                        integrator),
            "springs.json");
        EXPECT_EQ(scene.cloths.at(0).springs.bending, SpringBending::Dihedral) << integrator;
    }
}

TEST(SpringScene, AnObjectNamesItsOwnExplicitIntegrator) {
    const Scene scene = parseScene(R"({"solver": {"springs": {"integrator": "symplecticEuler"}},
        "objects": [{"type": "cloth", "method": "springs", "springs": {"integrator": "midpoint"}},
                    {"type": "cloth", "method": "springs"}]})",
                                   "springs.json");
    EXPECT_EQ(scene.cloths.at(0).springs.integrator, SpringIntegrator::Midpoint);
    EXPECT_FALSE(scene.cloths.at(1).springs.integrator.has_value());
    EXPECT_EQ(objectIntegrator(scene.solver.springs, scene.cloths[0].springs), SpringIntegrator::Midpoint);
    EXPECT_EQ(objectIntegrator(scene.solver.springs, scene.cloths[1].springs), SpringIntegrator::SymplecticEuler);
    const SimModel model = buildModel(scene);
    EXPECT_EQ(model.springs.objects.at(0).params.integrator, SpringIntegrator::Midpoint);
}

TEST(SpringScene, MeshObjectDefaultsToMeshTopology) {
    const test::ScratchFolder folder;
    test::writeTextFile(folder / "ball.obj", test::makeIcosphere(0.5, 1).obj());
    const Scene scene = parseScene(
        R"({"objects": [{"type": "mesh", "method": "springs", "file": "ball.obj", "springs": {"stretch": 500}}]})",
        folder / "scene.json");
    EXPECT_EQ(scene.cloths.at(0).springs.topology, SpringTopology::Mesh);
    const SimModel model = buildModel(scene);
    const SpringCounts& counts = model.springs.objects.at(0).counts;
    EXPECT_EQ(counts.boundaryEdges, 0u);
    EXPECT_EQ(counts.stretchSprings, counts.edges);
    EXPECT_EQ(counts.hinges, counts.edges);
}

TEST(SpringScene, ShippedSpringScenesLoadAndBuild) {
    for (const char* name : {"springs_cloth.json", "springs_flag.json", "springs_overshoot.json",
                             "springs_locking.json", "springs_newton_vs_vbd.json", "springs_integrators.json"}) {
        SCOPED_TRACE(name);
        const Scene scene = loadScene(kSpringScenesDir / name);
        ASSERT_FALSE(scene.cloths.empty());
        EXPECT_EQ(scene.cloths[0].method, SolverMethod::Springs);
        ModelDiagnostics diagnostics;
        const SimModel model = buildModel(scene, &diagnostics);
        const MsModel& ms = model.springs;
        EXPECT_FALSE(ms.empty());
        EXPECT_EQ(ms.firstParticle + ms.particleCount, model.particleCount());
        EXPECT_EQ(diagnostics.nonManifoldEdges, 0u);
        const SpringCounts& c = ms.objects.at(0).counts;
        std::cout << name << ": " << c.vertices << " vertices, " << c.stretchSprings << " stretch, " << c.shearSprings
                  << " shear, " << c.bendSprings << " bend springs, " << c.hinges << " hinges, "
                  << ms.quadratic.size() << " quadratic entries, " << ms.blockColumns.size() << " blocks, "
                  << ms.vertexColours.size() << " colours\n";
    }
}

}  // namespace
}  // namespace vksim
