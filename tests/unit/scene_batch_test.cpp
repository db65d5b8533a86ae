// scene/scene_copies.h and scene/scene_batch.h: the copies of a scene as
// one scene, and what they refuse (docs/python.md, "Batch").
#include <string>

#include <gtest/gtest.h>

#include "contacts/contact_model.h"
#include "scene/scene_batch.h"
#include "scene/scene_loader.h"
#include "solvers/model_builder.h"

namespace vksim {
namespace {

constexpr const char* kTwoCloths = R"({
  "objects": [
    { "type": "cloth", "name": "a", "resolution": [4, 4], "pinned": [[0, 0]] },
    { "type": "cloth", "name": "b", "resolution": [3, 3], "stretch": { "stiffness": 0.5 } }
  ],
  "colliders": [ { "type": "plane" } ]
})";

std::string errorOf(const std::string& text, uint32_t count, const std::vector<BatchVary>& vary) {
    try {
        buildSceneBatch(text, "s.json", count, vary);
    } catch (const SceneError& e) {
        return e.what();
    }
    return "";
}

TEST(SceneBatch, CopiesAreTheSceneCopyAfterCopy) {
    const SceneBatch batch = buildSceneBatch(kTwoCloths, "s.json", 3, {});
    EXPECT_EQ(batch.count, 3u);
    EXPECT_EQ(batch.objectNames, (std::vector<std::string>{"a", "b"}));
    ASSERT_EQ(batch.scene.cloths.size(), 6u);
    const char* names[] = {"a#0", "b#0", "a#1", "b#1", "a#2", "b#2"};
    for (size_t k = 0; k < 6; ++k) EXPECT_EQ(batch.scene.cloths[k].name, names[k]);
    EXPECT_EQ(batch.scene.colliders.size(), 1u);  // shared, not copied
    EXPECT_EQ(batch.scene.cloths[4].pinned, batch.scene.cloths[0].pinned);
}

TEST(SceneBatch, VariedKeysTakeOneValuePerCopyAndMissingOnesAreCreated) {
    const SceneBatch batch = buildSceneBatch(
        kTwoCloths, "s.json", 2,
        {{"/objects/0/stretch/stiffness", {0.25, 0.75}}, {"/objects/1/mass", {2.0, 3.0}}});
    EXPECT_EQ(batch.scene.cloths[0].stretch.stiffness, 0.25f);  // "a" had no "stretch" block
    EXPECT_EQ(batch.scene.cloths[2].stretch.stiffness, 0.75f);
    EXPECT_EQ(batch.scene.cloths[1].mass, 2.0f);
    EXPECT_EQ(batch.scene.cloths[3].mass, 3.0f);
    EXPECT_EQ(batch.scene.cloths[1].stretch.stiffness, 0.5f);  // what is not varied stays
}

// /solver/gravity is the one solver key a copy has its own value of: its
// objects carry it into the model, and every particle gets its copy's.
TEST(SceneBatch, GravityVariesPerCopyOnItsObjects) {
    const SceneBatch batch =
        buildSceneBatch(kTwoCloths, "s.json", 2, {{"/solver/gravity", {{0.0, -9.81, 0.0}, {1.0, -1.6, 0.0}}}});
    ASSERT_EQ(batch.scene.cloths.size(), 4u);
    EXPECT_EQ(batch.scene.cloths[1].gravity, glm::vec3(0.0f, -9.81f, 0.0f));
    EXPECT_EQ(batch.scene.cloths[2].gravity, glm::vec3(1.0f, -1.6f, 0.0f));
    const SimModel model = buildModel(batch.scene);
    const std::vector<glm::vec4> g = particleGravities(model);
    ASSERT_EQ(g.size(), 2 * (16 + 9u));
    EXPECT_EQ(g[0], glm::vec4(0.0f, -9.81f, 0.0f, 2.0f * 9.81f));
    EXPECT_EQ(g[g.size() - 1], glm::vec4(1.0f, -1.6f, 0.0f, 2.0f * glm::length(glm::vec3(1.0f, -1.6f, 0.0f))));
    // A batch that does not vary it, and a scene's world, read the settings'.
    EXPECT_TRUE(particleGravities(buildModel(buildSceneBatch(kTwoCloths, "s.json", 2, {}).scene)).empty());
}

TEST(SceneBatch, RefusalsAreOneLineNamingTheKey) {
    EXPECT_EQ(errorOf(kTwoCloths, 2, {{"/solver/substeps", {1, 2}}}),
              "s.json: batch: vary \"/solver/substeps\": the copies share /solver (one World's step and dispatches "
              "for all); of /solver only \"/solver/gravity\" varies per copy");
    // A key that only begins as gravity's is not gravity.
    EXPECT_NE(errorOf(kTwoCloths, 2, {{"/solver/gravityScale", {1, 2}}}).find("of /solver only"), std::string::npos);
    EXPECT_EQ(errorOf(kTwoCloths, 0, {}), "s.json: batch: count 0: expected 1 to 1048576 copies");
    EXPECT_EQ(errorOf(kTwoCloths, 2, {{"/colliders/0/friction", {0.1, 0.2}}}),
              "s.json: batch: vary \"/colliders/0/friction\": the copies share /colliders (one World steps them "
              "together); vary the objects' keys");
    EXPECT_EQ(errorOf(kTwoCloths, 2, {{"/objects/0/mass", {1.0, 2.0, 3.0}}}),
              "s.json: batch: vary \"/objects/0/mass\": 3 values for 2 copies");
    EXPECT_EQ(errorOf(kTwoCloths, 2, {{"/objects/2/mass", {1.0, 2.0}}}),
              "s.json: batch: vary \"/objects/2/mass\": the scene has no \"/objects/2\"");
    EXPECT_EQ(errorOf(kTwoCloths, 2, {{"/objects/0/mass", {1.0, "heavy"}}}),
              "batch copy 1: s.json: /objects/0/mass: expected a number > 0, got string \"heavy\"");
}

// Each copy is a contact group: its contact particles are numbered within
// it as a world of it alone numbers them, and its part of the hash table is
// that world's table, even where a copy's objects lie in two solvers'
// ranges (the model orders particles solver by solver, copy after copy).
TEST(SceneBatch, EachCopyIsAContactGroupNumberedAsItsWorld) {
    Scene scene = parseScene(kTwoCloths, "s.json");
    scene.cloths[0].contacts.enabled = true;
    scene.cloths[1].contacts.enabled = true;
    scene.cloths[1].method = SolverMethod::Springs;
    const ContactModel alone = buildContactModel(buildModel(scene), {});
    const ContactModel batch = buildContactModel(buildModel(replicateScene(scene, 3).scene), {});
    ASSERT_EQ(alone.groups.size(), 1u);
    ASSERT_EQ(batch.groups.size(), 3u);
    ASSERT_EQ(batch.count(), 3 * alone.count());
    for (uint32_t g = 0; g < 3; ++g) {
        EXPECT_EQ(batch.groups[g].tableMask, alone.groups[0].tableMask);
        EXPECT_EQ(batch.groups[g].firstBucket, g * alone.tableSize);
    }
    // PBD's "a" of every copy, then the mass-spring "b" of every copy.
    std::vector<uint32_t> expected;
    for (uint32_t g = 0; g < 3; ++g)
        for (uint32_t k = 0; k < 16; ++k) expected.push_back(k);
    for (uint32_t g = 0; g < 3; ++g)
        for (uint32_t k = 16; k < 25; ++k) expected.push_back(k);
    EXPECT_EQ(batch.localIndices, expected);
    EXPECT_EQ(batch.particles[16].flags >> gpu::kContactGroupShift, 1u);
    EXPECT_EQ(batch.particles[48].flags >> gpu::kContactGroupShift, 0u);
}

TEST(SceneBatch, ScenesWhoseCopiesWouldCoupleAreRefused) {
    Scene scene = parseScene(kTwoCloths, "s.json");
    scene.cloths[1].method = SolverMethod::Springs;
    scene.solver.springs.integrator = SpringIntegrator::ImplicitEuler;
    EXPECT_THROW(replicateScene(scene, 2), SceneError);
    scene.solver.springs.integrator = SpringIntegrator::Vbd;
    EXPECT_EQ(replicateScene(scene, 2).scene.cloths.size(), 4u);
}

// A VBD solid's vertex steps read only its own tets: its copies batch,
// where a projective dynamics solid's "auto" relaxation (the whole
// system's spectrum) is refused.
TEST(SceneBatch, VbdSolidsBatchWherePdSolidsNeedFixedJacobiWeights) {
    Scene scene = parseScene(R"({
      "objects": [ { "type": "tetBox", "name": "box", "method": "vbd", "cells": [2, 1, 1],
                     "material": { "youngsModulus": 1e5 } } ]
    })",
                             "s.json");
    EXPECT_EQ(replicateScene(scene, 3).scene.solids.size(), 3u);
    scene.solids[0].method = SolidMethod::Pd;
    EXPECT_THROW(replicateScene(scene, 3), SceneError);
}

// An XPBD solid's tetrahedra touch its own particles only: its copies are
// independent, where a projective dynamics solid's "auto" relaxation comes
// from the whole system's spectrum (refused).
TEST(SceneBatch, XpbdSolidsAreBatchedAndPdSolidsWithAutoRelaxationAreNot) {
    Scene scene = parseScene(R"({ "objects": [ { "type": "tetBox", "name": "box", "method": "xpbd",
        "volumeConstraint": { "stiffness": 0.5 }, "material": { "youngsModulus": 1e5 } } ] })",
                             "s.json");
    const SceneBatch batch = replicateScene(scene, 3);
    ASSERT_EQ(batch.scene.solids.size(), 3u);
    const SimModel model = buildModel(batch.scene);
    EXPECT_EQ(model.pbd.elasticMaterialSolids, (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(model.pbd.tetrahedra.size(), 3 * 6 * 8 * 2 * 2u);
    EXPECT_EQ(model.pbd.materials.size(), 3u);  // one PBD volume row per copy
    scene.solids[0].method = SolidMethod::Pd;
    scene.solids[0].volumeConstraintStiffness.reset();
    EXPECT_THROW(replicateScene(scene, 2), SceneError);
}

}  // namespace
}  // namespace vksim
