// What the model builder makes of "shapeMatching" (solvers/pbd/shape_match_builder.h,
// docs/physics.md §13): one group per object over its particles, rest
// offsets about the rest centre of mass with the particles' masses (a pinned
// vertex keeps its mass there), Aqq^-1 for the linear mode; and the shapes
// that fix no rotation or no linear map refused with the key named.
#include <filesystem>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "../common/mesh_fixtures.h"
#include "scene/scene_loader.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/model_builder.h"

namespace vksim::test {
namespace {

TEST(ShapeMatchModel, OneGroupPerObjectWithRestOffsetsAboutTheCentreOfMass) {
    ScratchFolder folder;
    writeTextFile(folder / "sphere.obj", makeIcosphere(0.5, 2).obj());
    const Scene scene = parseScene(R"({ "objects": [
        { "type": "cloth", "resolution": [6, 5], "pinned": [[0, 0]] },
        { "type": "mesh", "file": "sphere.obj", "mass": 2.5, "position": [1, 2, 3],
          "shapeMatching": { "mode": "linear", "beta": 0.25, "stiffness": 0.4 } },
        { "type": "cloth", "resolution": [4, 4], "pinned": [[0, 0]], "position": [0, 1, 0],
          "shapeMatching": { "stiffness": 0.7 } } ] })",
                                   folder / "scene.json");
    const SimModel model = buildModel(scene);
    ASSERT_EQ(model.pbd.shapeMatchGroups.size(), 2u);  // the first cloth has none
    const gpu::ShapeMatchGroup& sphere = model.pbd.shapeMatchGroups[0];
    const gpu::ShapeMatchGroup& cloth = model.pbd.shapeMatchGroups[1];
    EXPECT_EQ(sphere.firstParticle, model.objects[1].firstParticle);
    EXPECT_EQ(sphere.particleCount, model.objects[1].particleCount);
    EXPECT_EQ(sphere.mode, gpu::kShapeMatchLinear);
    EXPECT_FLOAT_EQ(sphere.beta, 0.25f);
    EXPECT_FLOAT_EQ(sphere.stiffness, 0.4f);
    EXPECT_EQ(cloth.mode, gpu::kShapeMatchRigid);
    EXPECT_EQ(cloth.firstRest, sphere.particleCount);
    EXPECT_EQ(model.pbd.shapeMatchRest.size(), size_t(sphere.particleCount + cloth.particleCount));

    for (const gpu::ShapeMatchGroup& g : model.pbd.shapeMatchGroups) {
        double mass = 0.0;
        glm::dvec3 moment(0.0);
        glm::dmat3 Aqq(0.0);
        for (uint32_t l = 0; l < g.particleCount; ++l) {
            const glm::vec4 rest = model.pbd.shapeMatchRest[g.firstRest + l];
            const double m = rest.w;
            mass += m;
            moment += m * glm::dvec3(glm::vec3(rest));
            Aqq += glm::outerProduct(m * glm::dvec3(glm::vec3(rest)), glm::dvec3(glm::vec3(rest)));
            // Free particles: the rest mass is the particle's; the pinned one keeps its share.
            const float w = model.positions[g.firstParticle + l].w;
            if (w > 0.0f) {
                EXPECT_NEAR(m, 1.0 / w, 1e-6 * m);
            }
        }
        EXPECT_NEAR(mass * g.inverseMass, 1.0, 1e-6);
        EXPECT_LT(glm::length(moment), 1e-6 * mass);  // offsets about the centre of mass
        if (g.mode == gpu::kShapeMatchLinear) {
            const glm::dmat3 product =
                glm::dmat3(glm::dvec3(glm::vec3(g.restInverse0)), glm::dvec3(glm::vec3(g.restInverse1)),
                           glm::dvec3(glm::vec3(g.restInverse2))) * Aqq;
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) EXPECT_NEAR(product[i][j], i == j ? 1.0 : 0.0, 1e-4);
        }
    }
    // The cloth's 16 vertices weigh 1 kg together, its pinned corner included.
    double clothMass = 0.0;
    for (uint32_t l = 0; l < cloth.particleCount; ++l) clothMass += model.pbd.shapeMatchRest[cloth.firstRest + l].w;
    EXPECT_NEAR(clothMass, 1.0, 1e-6);
}

// A flat mesh fixes a rotation (rigid mode is fine) but no linear map: the
// linear mode is refused when the model is built, naming the scene, the
// object and the key. (A grid cloth is refused already by the loader:
// tests/bad_scenes/shape_match_linear_grid.json.)
TEST(ShapeMatchModel, TheLinearModeOnAFlatMeshIsRefused) {
    const std::string flag = (std::filesystem::path(VKSIM_SOURCE_DIR) / "assets" / "flag.obj").string();
    const Scene rigid = parseScene(
        fmt::format(R"({{ "objects": [ {{ "type": "mesh", "file": "{}", "shapeMatching": {{ "mode": "rigid" }} }} ] }})",
                    flag),
        "flat.json");
    EXPECT_EQ(buildModel(rigid).pbd.shapeMatchGroups.size(), 1u);
    const Scene linear = parseScene(
        fmt::format(R"({{ "objects": [ {{ "type": "mesh", "file": "{}", "shapeMatching": {{ "mode": "linear" }} }} ] }})",
                    flag),
        "flat.json");
    try {
        buildModel(linear);
        FAIL() << "a flat mesh in the linear mode was accepted";
    } catch (const std::invalid_argument& error) {
        const std::string message = error.what();
        std::cout << "[shape matching] " << message << "\n";
        EXPECT_NE(message.find("flat.json: /objects/0: shapeMatching/mode: \"linear\" needs rest points that span a "
                               "volume"),
                  std::string::npos)
            << message;
        EXPECT_EQ(message.find('\n'), std::string::npos);
    }
}

}  // namespace
}  // namespace vksim::test
