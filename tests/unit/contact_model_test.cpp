// The contact particles of a model (contacts/contact_model.h): every
// particle of a cloth, the surface vertices of a tetrahedral solid, each
// flagged by whether its solver projects contacts in its iterations, and
// the map from the store's particles to them; a splitting cloth's spare
// particles, which follow the splits (followSplits).
#include <gtest/gtest.h>

#include "contacts/contact_model.h"
#include "contacts/contact_reference.h"
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

// The triangle across each edge (ContactModel::triangleNeighbours), which
// the vertex-triangle detection asks whether it keeps a constraint on an
// edge: mutual, sharing exactly the two ends of the edge opposite the
// corner, within the object; none on a cloth's border, where a 5 x 4 grid
// has 2 (4 + 3) edges; every edge of a box's closed surface shared.
TEST(ContactModel, EachTriangleKnowsTheTriangleAcrossEachEdge) {
    Scene scene;
    ClothObject cloth;
    cloth.name = "cloth";
    cloth.grid.resolution = {5, 4};
    cloth.contacts = {.enabled = true, .thickness = 0.01f, .self = true, .friction = 0.3f, .triangles = true};
    SolidObject box;
    box.name = "box";
    box.cells = {2, 2, 2};
    box.size = glm::vec3(0.4f, 0.3f, 0.2f);
    box.position = glm::vec3(0.0f, 1.0f, 0.0f);
    box.contacts = {.enabled = true, .thickness = 0.02f, .self = false, .friction = 0.5f, .triangles = true};
    scene.cloths = {cloth};
    scene.solids = {box};
    const SimModel model = buildModel(scene);
    const ContactModel contacts = buildContactModel(model, {model.pbd.firstParticle, model.pbd.particleCount});
    ASSERT_EQ(contacts.triangleNeighbours.size(), contacts.triangleCount());
    ASSERT_GT(contacts.triangleCount(), 24u);
    uint32_t clothBorder = 0, boxBorder = 0;
    for (uint32_t t = 0; t < contacts.triangleCount(); ++t) {
        const gpu::ContactTriangle& tri = contacts.triangles[t];
        const uint32_t corners[3] = {tri.a, tri.b, tri.c};
        for (uint32_t i = 0; i < 3; ++i) {
            const uint32_t across = contacts.triangleNeighbours[t][i];
            if (across == gpu::kNoNeighbourTriangle) {
                (model.objects[tri.object].name == "cloth" ? clothBorder : boxBorder) += 1;
                continue;
            }
            ASSERT_LT(across, contacts.triangleCount());
            const gpu::ContactTriangle& other = contacts.triangles[across];
            EXPECT_EQ(other.object, tri.object);
            auto inOther = [&](uint32_t k) { return k == other.a || k == other.b || k == other.c; };
            EXPECT_TRUE(inOther(corners[(i + 1) % 3]) && inOther(corners[(i + 2) % 3])) << "triangle " << t;
            EXPECT_FALSE(inOther(corners[i])) << "triangle " << t;
            const glm::uvec4 back = contacts.triangleNeighbours[across];
            EXPECT_TRUE(back.x == t || back.y == t || back.z == t) << "triangle " << t << " and " << across;
        }
    }
    EXPECT_EQ(clothBorder, 2u * (4 + 3));
    EXPECT_EQ(boxBorder, 0u);
}

// A cloth that splits torn vertices (docs/physics.md §1, "Tearing"): its
// spare particles are contact particles flagged spare and unused, touching
// nothing; once a row says a split took one (the vertex it came from), it
// takes that vertex's rest position, touches what the vertex would, and
// not its twin (the rest-shape rule); its own row again (a reset) makes it
// unused.
TEST(ContactModel, SpareParticlesFollowTheSplits) {
    Scene scene;
    ClothObject cloth;
    cloth.name = "cloth";
    cloth.grid.resolution = {4, 4};
    cloth.grid.size = {0.3f, 0.3f};
    cloth.tearing = {.enabled = true, .strain = 0.2f, .capacity = 3.0f};
    cloth.contacts = {.enabled = true, .thickness = 0.02f, .self = true, .friction = 0.3f};
    scene.cloths = {cloth};
    const SimModel model = buildModel(scene);
    ContactModel contacts = buildContactModel(model, {model.pbd.firstParticle, model.pbd.particleCount});
    ASSERT_EQ(model.objects[0].spareParticles, 3u);
    ASSERT_EQ(contacts.count(), 16u + 3u);
    EXPECT_EQ(contacts.spareCount, 3u);
    for (uint32_t k = 0; k < contacts.count(); ++k) {
        const uint32_t spareFlags = contacts.particles[k].flags & (gpu::kContactSpare | gpu::kContactUnused);
        EXPECT_EQ(spareFlags, k >= 16 ? gpu::kContactSpare | gpu::kContactUnused : 0u) << k;
    }
    std::vector<glm::vec4> p(model.positions.begin(), model.positions.end());
    // Unused: no pairs, even placed where the vertex 5 is, far from its rest.
    p[16] = p[5];
    for (uint32_t l = 0; l < 16; ++l) EXPECT_FALSE(contactCandidate(contacts, p, 16, l).neighbour);

    // Vertex 5 (inside the grid) split onto particle 16.
    std::vector<uint32_t> rows(model.particleCount());
    for (uint32_t i = 0; i < rows.size(); ++i) rows[i] = i;
    rows[16] = 5;
    p[16].w = p[5].w;
    followSplits(contacts, rows);
    const gpu::ContactParticle& split = contacts.particles[16];
    EXPECT_EQ(split.flags & gpu::kContactUnused, 0u);
    EXPECT_EQ(glm::vec3(split.rest), glm::vec3(model.positions[5]));
    EXPECT_FLOAT_EQ(split.rest.w, 0.02f);
    EXPECT_EQ(contacts.particles[17].flags & gpu::kContactUnused, gpu::kContactUnused);
    EXPECT_FALSE(contactCandidate(contacts, p, 16, 5).neighbour) << "its twin: the same rest position";
    // A particle far from vertex 5 at rest, moved onto the split one, touches it.
    p[15] = p[16] + glm::vec4(0.01f, 0.0f, 0.0f, 0.0f);
    EXPECT_TRUE(contactCandidate(contacts, p, 16, 15).neighbour);
    EXPECT_TRUE(contactCandidate(contacts, p, 15, 16).neighbour);

    rows[16] = 16;
    followSplits(contacts, rows);
    EXPECT_EQ(contacts.particles[16].flags & gpu::kContactUnused, gpu::kContactUnused);
    EXPECT_FALSE(contactCandidate(contacts, p, 16, 15).neighbour);
}

}  // namespace
}  // namespace vksim
