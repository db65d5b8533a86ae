// Contact particles of different objects that start inside their contact
// distance (contacts/starting_overlaps.h), which the model summary warns
// of: counted exactly (against every pair), across objects only, within a
// batch copy only, and named in the summary; and no shipped scene starts so.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <string>

#include "contacts/contact_model.h"
#include "contacts/starting_overlaps.h"
#include "scene/scene_loader.h"
#include "solvers/model_builder.h"
#include "solvers/model_summary.h"

namespace vksim {
namespace {

// A 0.3 m cloth of 5 x 5 vertices at height clothHeight, over a 0.3 m
// tetrahedral box of 4^3 cells: both 7.5 cm between vertices, both with
// contacts of 1 cm (self-contact on).
Scene clothOverBox(float clothHeight, float boxHeight) {
    ClothObject cloth;
    cloth.name = "cloth";
    cloth.grid.resolution = {5, 5};
    cloth.grid.size = glm::vec2(0.3f);
    cloth.position = glm::vec3(0.0f, clothHeight, 0.0f);
    cloth.contacts = {.enabled = true, .thickness = 0.01f, .self = true, .friction = 0.3f};
    SolidObject box;
    box.name = "box";
    box.cells = {4, 4, 4};
    box.size = glm::vec3(0.3f);
    box.position = glm::vec3(0.0f, boxHeight, 0.0f);
    box.contacts = {.enabled = true, .thickness = 0.01f, .self = true, .friction = 0.3f};
    Scene scene;
    scene.cloths = {cloth};
    scene.solids = {box};
    return scene;
}

// The same count by testing every pair.
uint64_t everyPairInside(const ContactModel& contacts) {
    uint64_t pairs = 0;
    for (uint32_t k = 0; k < contacts.count(); ++k)
        for (uint32_t l = k + 1; l < contacts.count(); ++l) {
            const gpu::ContactParticle& a = contacts.particles[k];
            const gpu::ContactParticle& b = contacts.particles[l];
            const double distance = glm::length(glm::dvec3(glm::vec3(a.rest)) - glm::dvec3(glm::vec3(b.rest)));
            if (a.object != b.object && distance < double(a.rest.w) + double(b.rest.w)) ++pairs;
        }
    return pairs;
}

TEST(StartingOverlaps, CountsThePairsOfDifferentObjectsInsideTheirContactDistance) {
    // The cloth 5 mm above the box's top face: each of its 25 vertices is
    // 5 mm over one of the top's, inside the 2 cm contact distance.
    ModelDiagnostics diagnostics;
    const SimModel model = buildModel(clothOverBox(0.155f, 0.0f), &diagnostics);
    const ContactModel contacts = buildContactModel(model, {});
    const StartingOverlaps found = findStartingOverlaps(contacts);
    const uint64_t expected = everyPairInside(contacts);
    std::cout << "cloth 5 mm over the box: " << found.pairs << " pairs inside (every pair tested: " << expected
              << "), deepest " << found.distance << " m of " << found.contactDistance << " m\n";
    EXPECT_EQ(expected, 25u);
    EXPECT_EQ(found.pairs, expected);
    EXPECT_NEAR(found.distance, 0.005, 1e-6);  // float positions of magnitude 0.15
    EXPECT_DOUBLE_EQ(found.contactDistance, 2.0 * double(0.01f));
    EXPECT_EQ(diagnostics.startingOverlaps, expected);
    const std::string summary = describeModel(model, diagnostics);
    EXPECT_NE(summary.find("start inside their contact distance"), std::string::npos) << summary;
    EXPECT_NE(summary.find("'cloth' and 'box'"), std::string::npos) << summary;
}

TEST(StartingOverlaps, NoneWhenApartOrInOneObjectOrInAnotherCopy) {
    // 3 cm above the box: apart (the particles of one object never count).
    ModelDiagnostics diagnostics;
    const SimModel model = buildModel(clothOverBox(0.18f, 0.0f), &diagnostics);
    EXPECT_EQ(diagnostics.startingOverlaps, 0u);
    EXPECT_EQ(describeModel(model, diagnostics).find("contact distance"), std::string::npos);

    // One object alone, whatever its spacing: a cloth 1 cm square of 5 x 5.
    Scene dense = clothOverBox(0.155f, 0.0f);
    dense.solids.clear();
    dense.cloths[0].grid.size = glm::vec2(0.01f);
    buildModel(dense, &diagnostics);
    EXPECT_EQ(diagnostics.startingOverlaps, 0u);

    // The same overlap with the cloth in batch copy 1 and the box in copy
    // 0: copies never touch each other.
    Scene copies = clothOverBox(0.155f, 0.0f);
    copies.cloths[0].batchCopy = 1;
    buildModel(copies, &diagnostics);
    EXPECT_EQ(diagnostics.startingOverlaps, 0u);
}

TEST(StartingOverlaps, NoShippedSceneStartsItsObjectsInsideOneAnother) {
    uint32_t scenes = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(VKSIM_SOURCE_DIR) / "scenes")) {
        if (entry.path().extension() != ".json") continue;
        ModelDiagnostics diagnostics;
        buildModel(loadScene(entry.path().string()), &diagnostics);
        EXPECT_EQ(diagnostics.startingOverlaps, 0u)
            << entry.path().filename().string() << ": '" << diagnostics.overlapA << "' and '" << diagnostics.overlapB
            << "' " << diagnostics.overlapDistance << " m apart of " << diagnostics.overlapContactDistance << " m";
        ++scenes;
    }
    EXPECT_GT(scenes, 30u);
}

}  // namespace
}  // namespace vksim
