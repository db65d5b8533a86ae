// The colour steps of one PBD iteration (solvers/pbd/colour_steps.h) under both
// colourings, and Gauss-Seidel over the shared colours against the
// families' own: per iteration, from one state, in the double-precision
// CPU reference that every GPU path follows (the GPU against it:
// tests/gpu/colour_across_families_test.cpp).
#include <gtest/gtest.h>

#include <iostream>

#include <fmt/format.h>

#include "../common/convergence_bounds.h"
#include "cloth_scenes.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/colour_steps.h"
#include "solvers/pbd/pbd_reference.h"

namespace vksim {
namespace {

// A 32 x 32 cloth pinned by two corners, XPBD stretch and bending (so that
// the XPBD objective is defined), swinging down.
Scene swingingCloth(PbdColouring colouring) {
    Scene scene = test::clothScene({32, 32});
    ClothObject& cloth = scene.cloths[0];
    cloth.pinned = {{0, 0}, {31, 0}};
    cloth.stretch.model = ConstraintModel::Xpbd;
    cloth.stretch.compliance = 1e-6f;
    cloth.bending.model = ConstraintModel::Xpbd;
    cloth.bending.compliance = 1e-4f;
    scene.solver.pbd.colouring = colouring;
    return scene;
}

// Per family: its colours, then its overflow group, family by family;
// across: the shared colours, then one step for every overflow group.
TEST(ColourSteps, PerFamilyThenAcross) {
    ColourGroups distance{{{0, 4}, {4, 3}}, {7, 2}}, bending{{{0, 5}, {5, 0}, {5, 1}}, {}}, attachment{{{0, 1}}, {}};
    const ColourGroups tetrahedra;  // none: the cloths' steps as before the family
    const FamilyGroups groups = {&distance, &bending, &attachment, &tetrahedra};
    std::vector<std::string> names;
    for (const ColourStep& step : colourSteps(groups, PbdColouring::PerFamily)) names.push_back(step.name);
    EXPECT_EQ(names, (std::vector<std::string>{"stretch colour 0", "stretch colour 1", "stretch overflow",
                                               "bending colour 0", "bending colour 2", "attachment colour 0"}));
    const std::vector<ColourStep> across = colourSteps(groups, PbdColouring::AcrossFamilies);
    names.clear();
    for (const ColourStep& step : across) names.push_back(step.name);
    EXPECT_EQ(names, (std::vector<std::string>{"shared colour 0", "shared colour 1", "shared colour 2", "shared overflow"}));
    EXPECT_EQ(across[0].range(distance, 0).count, 4u);
    EXPECT_EQ(across[0].range(bending, 1).count, 5u);
    EXPECT_EQ(across[0].range(attachment, 2).count, 1u);
    EXPECT_EQ(across[1].range(bending, 1).count, 0u);  // bending has none of colour 1
    EXPECT_FALSE(across[1].families[1]);
    EXPECT_EQ(across[2].range(distance, 0).count, 0u);  // distance has no colour 2
    EXPECT_TRUE(across[3].serial);
    EXPECT_EQ(across[3].range(distance, 0).first, 7u);
    EXPECT_EQ(across[3].range(distance, 0).count, 2u);
    EXPECT_FALSE(across[3].families[1]);
}

// The scene's cloths: shared colours where the families had 8 + 18 (+ 1
// with attachments) of their own.
TEST(ColourSteps, AGridClothNeedsFewerSharedColours) {
    for (bool attachments : {false, true}) {
        Scene scene = test::clothScene({48, 48});
        scene.cloths[0].pinned = {{0, 0}, {47, 0}};
        scene.cloths[0].pinsAsAttachments = attachments;
        const size_t perFamily = colourSteps(buildModel(scene)).size();
        scene.solver.pbd.colouring = PbdColouring::AcrossFamilies;
        const SimModel model = buildModel(scene);
        const size_t across = colourSteps(model).size();
        std::cout << fmt::format("[colour steps] 48 x 48 cloth{}: {} steps per family, {} across\n",
                                 attachments ? " with attachments" : "", perFamily, across);
        EXPECT_EQ(perFamily, attachments ? 27u : 26u);
        EXPECT_GE(across, 24u);  // an interior vertex: 8 stretch and 16 bending constraints
        EXPECT_LE(across, 25u);
        EXPECT_EQ(model.pbd.distanceGroups.overflow.count + model.pbd.bendingGroups.overflow.count, 0u);
    }
}

// From one swinging state (20 frames of the per-family order), one substep
// of k = 1 ... 12 iterations in each order: with XPBD, k iterations are the
// first k of twelve (no k' depends on the count), so these are the curves of
// one substep's iterations. Measured (double precision): both fall at
// every iteration; the shared colours' objective and mean |C| stay within a
// few per cent of the families' (printed). Bounds: those the cluster path
// meets against the colours (tests/common/convergence_bounds.h).
TEST(ColourSteps, SharedColoursConvergePerIterationAsTheFamiliesOwn) {
    SimModel perFamily = buildModel(swingingCloth(PbdColouring::PerFamily));
    SimModel across = buildModel(swingingCloth(PbdColouring::AcrossFamilies));
    SolverSettings settings = swingingCloth(PbdColouring::PerFamily).solver;
    {
        PbdReference swing(perFamily);
        for (int f = 0; f < 20; ++f) swing.step(settings);
        for (size_t i = 0; i < perFamily.positions.size(); ++i) {
            const glm::vec4 x(glm::vec3(swing.positions()[i]), perFamily.positions[i].w);
            const glm::vec4 v(glm::vec3(swing.velocities()[i]), 0.0f);
            perFamily.positions[i] = across.positions[i] = x;
            perFamily.velocities[i] = across.velocities[i] = v;
        }
    }
    settings.substeps = 1;
    const double h = settings.timeStep;
    auto curves = [&](const SimModel& model, std::vector<double>& residual, std::vector<double>& objective) {
        const std::vector<glm::dvec3> predicted = PbdReference(model).predictedPositions(settings);
        for (uint32_t k = 1; k <= 12; ++k) {
            PbdReference reference(model);
            settings.pbd.iterations = k;
            reference.step(settings);
            residual.push_back(reference.distanceResidual());
            objective.push_back(reference.xpbdObjective(predicted, h).value());
        }
    };
    std::vector<double> ra, rb, ea, eb;
    curves(across, ra, ea);
    curves(perFamily, rb, eb);
    std::cout << "[colour steps] mean |C| [m] / XPBD objective [J] per iteration, across / per family:";
    for (size_t k = 0; k < ra.size(); ++k)
        std::cout << fmt::format(" {:.4e}/{:.4e} {:.5e}/{:.5e};", ra[k], rb[k], ea[k], eb[k]);
    std::cout << "\n";
    test::expectConvergesAsWell(ra, ea, rb, eb, "colour steps", "across / per family");
}

}  // namespace
}  // namespace vksim
