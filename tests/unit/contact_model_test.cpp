// The contact particles of a model (contacts/contact_model.h): every
// particle of a cloth, the surface vertices of a tetrahedral solid, each
// flagged by whether its solver projects contacts in its iterations, and
// the map from the store's particles to them.
#include <gtest/gtest.h>

#include "contacts/contact_model.h"
#include "solvers/model_builder.h"

namespace vksim {
namespace {

TEST(ContactModel, ClothsGiveEveryParticleAndSolidsTheirSurface) {
    Scene scene;
    ClothObject cloth;
    cloth.name = "cloth";
    cloth.grid.resolution = {5, 4};
    cloth.contacts = {.enabled = true, .thickness = 0.01f, .self = true, .friction = 0.3f};
    SolidObject box;
    box.name = "box";
    box.cells = {4, 3, 2};
    box.size = glm::vec3(0.4f, 0.3f, 0.2f);
    box.position = glm::vec3(0.0f, 1.0f, 0.0f);
    box.contacts = {.enabled = true, .thickness = 0.02f, .self = false, .friction = 0.5f};
    scene.cloths = {cloth};
    scene.solids = {box};
    const SimModel model = buildModel(scene);
    const ContactModel contacts = buildContactModel(model, {model.pbd.firstParticle, model.pbd.particleCount});

    // The box's (5 x 4 x 3) vertices less its (3 x 2 x 1) inner ones.
    const uint32_t surface = 5 * 4 * 3 - 3 * 2 * 1;
    ASSERT_EQ(contacts.count(), 20u + surface);
    uint32_t cloths = 0, solids = 0;
    for (uint32_t k = 0; k < contacts.count(); ++k) {
        const gpu::ContactParticle& particle = contacts.particles[k];
        EXPECT_EQ(contacts.contactOf[particle.particle], k);
        if (k > 0) {
            EXPECT_LT(contacts.particles[k - 1].particle, particle.particle);
        }
        const bool pbd = model.pbd.particleCount > 0 && particle.particle >= model.pbd.firstParticle &&
                         particle.particle < model.pbd.firstParticle + model.pbd.particleCount;
        EXPECT_EQ((particle.flags & gpu::kContactInIterations) != 0, pbd);
        if (model.objects[particle.object].name == "cloth") {
            ++cloths;
            EXPECT_EQ(particle.flags & gpu::kContactSelf, gpu::kContactSelf);
            EXPECT_FLOAT_EQ(particle.rest.w, 0.01f);
        } else {
            ++solids;
            EXPECT_EQ(particle.flags & gpu::kContactSelf, 0u);
            EXPECT_FLOAT_EQ(particle.rest.w, 0.02f);
        }
    }
    EXPECT_EQ(cloths, 20u);
    EXPECT_EQ(solids, surface);
    uint32_t mapped = 0;
    for (const uint32_t k : contacts.contactOf) mapped += k != gpu::kNotAContactParticle ? 1 : 0;
    EXPECT_EQ(mapped, contacts.count());
    EXPECT_TRUE(contacts.afterSolve) << "the box is PD's: its pairs are projected after the solves";
    EXPECT_FLOAT_EQ(contacts.largestThickness, 0.02f);
}

}  // namespace
}  // namespace vksim
