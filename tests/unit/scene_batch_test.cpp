// scene/scene_copies.h and scene/scene_batch.h: the copies of a scene as
// one scene, and what they refuse (docs/python.md, "Batch").
#include <iostream>
#include <numeric>
#include <string>

#include <fmt/format.h>

#include <gtest/gtest.h>

#include "contacts/contact_model.h"
#include "scene/scene_batch.h"
#include "scene/scene_loader.h"
#include "solvers/model_builder.h"
#include "solvers/pd/pd_system.h"
#include "solvers/springs/spring_newton_matrix.h"
#include "solvers/rigid/rigid_model.h"

namespace vksim {
namespace {

constexpr const char* kTwoCloths = R"({
  "objects": [
    { "type": "cloth", "name": "a", "resolution": [4, 4], "pinned": [[0, 0]] },
    { "type": "cloth", "name": "b", "resolution": [3, 3], "stretch": { "stiffness": 0.5 } }
  ],
  "colliders": [ { "type": "plane" } ]
})";

// Copy c's one object: its rows in the range of a solver whose first
// particle is `first`.
ParticleRange copyObjectRows(const SimModel& model, uint32_t c, uint32_t first) {
    const ObjectRange& object = model.objects.at(c);
    EXPECT_EQ(object.copy, c);
    return {object.firstParticle - first, object.particleCount};
}

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

constexpr const char* kThreeBodies = R"({
  "bodies": [
    { "type": "box", "name": "crate", "position": [0, 0.5, 0] },
    { "type": "sphere", "name": "ball", "position": [0, 2, 0] },
    { "type": "sphere", "name": "marble", "radius": 0.1, "position": [1, 2, 0] }
  ],
  "colliders": [ { "type": "plane" } ]
})";

// Each copy's bodies, named as its objects, with their varied keys; their
// pairs are their copy's only, in the rounds a world of the copy has.
TEST(SceneBatch, BodiesAreCopiedAndPairedWithinTheirCopy) {
    const SceneBatch batch = buildSceneBatch(kThreeBodies, "s.json", 2, {{"/bodies/1/mass", {2.0, 5.0}}});
    ASSERT_EQ(batch.scene.bodies.size(), 6u);
    EXPECT_EQ(batch.scene.bodies[4].name, "ball#1");
    EXPECT_EQ(batch.scene.bodies[4].batchCopy, 1u);
    EXPECT_EQ(batch.scene.bodies[1].mass, 2.0f);
    EXPECT_EQ(batch.scene.bodies[4].mass, 5.0f);
    const RigidModel alone = buildModel(parseScene(kThreeBodies, "s.json")).rigid;
    const RigidModel both = buildModel(batch.scene).rigid;
    ASSERT_EQ(both.roundCount(), alone.roundCount());
    for (uint32_t r = 0; r < alone.roundCount(); ++r) {
        std::vector<glm::uvec2> expected(alone.pairs.begin() + alone.roundStarts[r],
                                         alone.pairs.begin() + alone.roundStarts[r + 1]);
        const size_t own = expected.size();
        for (size_t k = 0; k < own; ++k) expected.push_back(expected[k] + glm::uvec2(3u));
        EXPECT_EQ(std::vector<glm::uvec2>(both.pairs.begin() + both.roundStarts[r],
                                          both.pairs.begin() + both.roundStarts[r + 1]),
                  expected)
            << "round " << r;
    }
    std::vector<glm::uvec2> pairs;
    std::vector<uint32_t> starts;
    EXPECT_THROW(scheduleCopiesBodyPairs({0, 1, 0}, pairs, starts), std::logic_error);
}

TEST(SceneBatch, BodyKeysThatWouldChangeTheShapeOrCoupleAreRefused) {
    EXPECT_EQ(errorOf(kThreeBodies, 2, {{"/bodies/1/radius", {0.1, 0.2}}}),
              "s.json: batch: vary \"/bodies/1/radius\": of a body only \"mass\", \"density\", \"position\", "
              "\"rotation\", \"velocity\", \"angularVelocity\", \"friction\", \"staticFriction\", \"restitution\" "
              "and \"color\" vary per copy (\"/bodies/0/mass\"); its type, name and shape are the scene's");
    EXPECT_NE(errorOf(kThreeBodies, 2, {{"/bodies/1", {nlohmann::json::object(), nlohmann::json::object()}}}),
              "");
    EXPECT_EQ(errorOf(kThreeBodies, 2, {{"/bodies/0/velocity", {{1.0, 2.0, 0.0}, {0.0, 0.0, 1.0}}}}), "");
    EXPECT_EQ(errorOf(kThreeBodies, 2, {{"/solver/gravity", {{0.0, -1.0, 0.0}, {0.0, -2.0, 0.0}}}}),
              "s.json: batch: vary \"/solver/gravity\": a batch's rigid bodies fall by the world's one gravity");
    // Beside objects, every copy's bodies are colliders of its own particles
    // only (particle/collider_slots.glsl): a copy sees 1 + 3 of them, however
    // many copies, as its scene alone does.
    Scene scene = parseScene(kTwoCloths, "s.json");
    scene.bodies = parseScene(kThreeBodies, "s.json").bodies;
    EXPECT_EQ(replicateScene(scene, 100).scene.bodies.size(), 300u);
}

// Mass-spring implicit Euler's Jacobi weights and line search are each
// copy's own (SpringSolver), as vertex block descent's steps are: both batch.
TEST(SceneBatch, SpringSolvesBatch) {
    Scene scene = parseScene(kTwoCloths, "s.json");
    scene.cloths[1].method = SolverMethod::Springs;
    for (const SpringIntegrator integrator : {SpringIntegrator::ImplicitEuler, SpringIntegrator::Vbd}) {
        scene.solver.springs.integrator = integrator;
        EXPECT_EQ(replicateScene(scene, 2).scene.cloths.size(), 4u);
    }
}

// Projective dynamics "auto" relaxation per copy: the spectrum of a copy's
// rows in the batch is, bit for bit, the one of the copy's world alone.
TEST(SceneBatch, EachPdCopyHasTheSpectrumOfItsWorld) {
    const auto cloth = [](double stiffness) {
        return fmt::format(R"({{ "objects": [ {{ "type": "cloth", "name": "c", "method": "pd", "resolution": [5, 4],
            "pinned": [[0, 0]], "stretch": {{ "stiffness": {} }} }} ] }})",
                           stiffness);
    };
    const double stiffness[] = {100.0, 4000.0};
    const SceneBatch batch =
        buildSceneBatch(cloth(100.0), "s.json", 2, {{"/objects/0/stretch/stiffness", {stiffness[0], stiffness[1]}}});
    const SimModel model = buildModel(batch.scene);
    const double h = 1.0 / 120.0;
    std::vector<JacobiSpectrum> spectra;
    for (uint32_t c = 0; c < 2; ++c) {
        const ParticleRange range = copyObjectRows(model, c, model.pd.firstParticle);
        std::vector<uint32_t> rows(range.count);
        std::iota(rows.begin(), rows.end(), range.first);
        spectra.push_back(estimateJacobiSpectrum(model.pd, h, rows));
        const SimModel alone = buildModel(parseScene(cloth(stiffness[c]), "s.json"));
        const JacobiSpectrum expected = estimateJacobiSpectrum(alone.pd, h);
        EXPECT_EQ(spectra[c].muMin, expected.muMin) << "copy " << c;
        EXPECT_EQ(spectra[c].muMax, expected.muMax) << "copy " << c;
    }
    // The copies' spectra differ: one estimate over both would suit neither.
    EXPECT_NE(spectra[0].muMax, spectra[1].muMax);
}

// Mass-spring implicit Euler per copy: the spectrum of a copy's rows in the
// batch, with its copy's stencil bound, is bit for bit the one of the
// copy's world alone.
TEST(SceneBatch, EachSpringCopyHasTheSpectrumOfItsWorld) {
    const auto cloth = [](double stretch, double bending) {
        return fmt::format(R"({{ "solver": {{ "springs": {{ "integrator": "implicitEuler" }} }},
            "objects": [ {{ "type": "cloth", "name": "c", "method": "springs", "resolution": [5, 4],
            "pinned": [[0, 0]], "springs": {{ "stretch": {}, "bending": {{ "model": "quadratic", "stiffness": {} }} }} }} ] }})",
                           stretch, bending);
    };
    const double stretch[] = {50.0, 2000.0, 400.0};
    const double bending[] = {0.01, 0.0, 0.01};
    const SceneBatch batch = buildSceneBatch(cloth(stretch[0], bending[0]), "s.json", 3,
                                             {{"/objects/0/springs/stretch", {stretch[0], stretch[1], stretch[2]}},
                                              {"/objects/0/springs/bending/stiffness",
                                               {bending[0], bending[1], bending[2]}}});
    const SimModel model = buildModel(batch.scene);
    const double h = 1.0 / 240.0;
    std::vector<ParticleRange> copies;
    for (uint32_t c = 0; c < 3; ++c) copies.push_back(copyObjectRows(model, c, model.springs.firstParticle));
    const std::vector<JacobiSpectrum> spectra = springCopySpectra(model.springs, model.positions, h, copies);
    ASSERT_EQ(spectra.size(), 3u);
    for (uint32_t c = 0; c < 3; ++c) {
        const SimModel alone = buildModel(parseScene(cloth(stretch[c], bending[c]), "s.json"));
        const JacobiSpectrum expected =
            springCopySpectra(alone.springs, alone.positions, h,
                              std::vector<ParticleRange>{{0, alone.springs.particleCount}})
                .front();
        EXPECT_EQ(spectra[c].muMin, expected.muMin) << "copy " << c;
        EXPECT_EQ(spectra[c].muMax, expected.muMax) << "copy " << c;
    }
    std::cout << fmt::format("[spring copies] mu_min {:.6g} {:.6g} {:.6g}, mu_max {} {} {} (each its world's)\n",
                             spectra[0].muMin, spectra[1].muMin, spectra[2].muMin, spectra[0].muMax, spectra[1].muMax,
                             spectra[2].muMax);
    // mu_max is each copy's stencil bound: 4 with quadratic bending, 2 with
    // springs alone; mu_min follows the stretch. One estimate over all three
    // would suit none of them.
    EXPECT_EQ(spectra[0].muMax, 4.0);
    EXPECT_EQ(spectra[1].muMax, 2.0);
    EXPECT_NE(spectra[0].muMin, spectra[2].muMin);
}

// A VBD solid's vertex steps read only its own tets, and a projective
// dynamics solid's "auto" relaxation is its copy's own (PdConstraints):
// both batch.
TEST(SceneBatch, VbdAndPdSolidsBatch) {
    Scene scene = parseScene(R"({
      "objects": [ { "type": "tetBox", "name": "box", "method": "vbd", "cells": [2, 1, 1],
                     "material": { "youngsModulus": 1e5 } } ]
    })",
                             "s.json");
    EXPECT_EQ(replicateScene(scene, 3).scene.solids.size(), 3u);
    scene.solids[0].method = SolidMethod::Pd;
    EXPECT_EQ(replicateScene(scene, 3).scene.solids.size(), 3u);
}

// An XPBD solid's tetrahedra touch its own particles only: its copies are
// independent.
TEST(SceneBatch, XpbdSolidsAreBatched) {
    Scene scene = parseScene(R"({ "objects": [ { "type": "tetBox", "name": "box", "method": "xpbd",
        "volumeConstraint": { "stiffness": 0.5 }, "material": { "youngsModulus": 1e5 } } ] })",
                             "s.json");
    const SceneBatch batch = replicateScene(scene, 3);
    ASSERT_EQ(batch.scene.solids.size(), 3u);
    const SimModel model = buildModel(batch.scene);
    EXPECT_EQ(model.pbd.elasticMaterialSolids, (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(model.pbd.tetrahedra.size(), 3 * 6 * 8 * 2 * 2u);
    EXPECT_EQ(model.pbd.materials.size(), 3u);  // one PBD volume row per copy
}

}  // namespace
}  // namespace vksim
