// The VBD solids' model (docs/physics.md §16): the builder puts them after
// every other range with their tets, material rows, incidence lists and
// vertex colours; no two vertices of a colour share a tet, and every tet is
// listed once per vertex, with that vertex's role.
#include <gtest/gtest.h>

#include <iostream>
#include <set>

#include <fmt/format.h>

#include "geometry/shared_math.h"
#include "solvers/model_builder.h"
#include "vbd_scenes.h"

namespace vksim::test {
namespace {

TEST(VbdModel, SolidsAreTheLastRangeWithTheirMaterial) {
    Scene scene = vbdHangingBarScene();
    SolidObject pd = scene.solids[0];
    pd.name = "pd bar";
    pd.method = SolidMethod::Pd;
    pd.material.reset();
    scene.solids.insert(scene.solids.begin(), pd);
    const SimModel model = buildModel(scene);
    const VbdModel& vbd = model.vbd;
    ASSERT_EQ(vbd.objects.size(), 1u);
    EXPECT_EQ(vbd.firstParticle, model.pd.firstParticle + model.pd.particleCount);
    EXPECT_EQ(vbd.firstParticle + vbd.particleCount, model.particleCount());
    EXPECT_EQ(vbd.tets.size(), 4u * 2u * 2u * 6u);
    const glm::dvec2 lame = ref::lameParameters(double(3e5f), double(0.3f));
    ASSERT_EQ(vbd.materials.size(), 1u);
    EXPECT_EQ(vbd.materials[0].model, gpu::kElasticNeoHookean);
    EXPECT_EQ(vbd.materials[0].mu, static_cast<float>(lame.x));
    EXPECT_EQ(vbd.materials[0].lambda, static_cast<float>(lame.y));
    // Mass from the density: 500 kg/m^3 over 0.8 x 0.2 x 0.2 m.
    double mass = 0.0, volume = 0.0;
    for (uint32_t i = vbd.firstParticle; i < vbd.firstParticle + vbd.particleCount; ++i)
        if (model.positions[i].w > 0.0f) mass += 1.0 / model.positions[i].w;
    for (const gpu::VbdTet& t : vbd.tets) volume += t.volume;
    EXPECT_NEAR(volume, 0.8 * 0.2 * 0.2, 1e-6);
    EXPECT_LT(mass, 500.0 * 0.032);  // the pinned face's share is not free
    EXPECT_EQ(model.objects.back().name, "bar");
}

TEST(VbdModel, IncidenceListsEveryTetOncePerVertexWithItsRole) {
    const SimModel model = buildModel(vbdFallingCubeScene());
    const VbdModel& vbd = model.vbd;
    ASSERT_EQ(vbd.vertices.size(), vbd.particleCount);
    EXPECT_EQ(vbd.incidentTets.size(), 4 * vbd.tets.size());
    for (uint32_t r = 0; r < vbd.particleCount; ++r) {
        const gpu::VbdVertex& v = vbd.vertices[r];
        EXPECT_GT(v.tetCount, 0u);
        for (uint32_t k = v.firstTet; k < v.firstTet + v.tetCount; ++k) {
            const uint32_t tet = vbd.incidentTets[k] / 4, role = vbd.incidentTets[k] % 4;
            EXPECT_EQ(vbd.tets[tet].particles[role], vbd.firstParticle + r);
            if (k > v.firstTet) {
                EXPECT_LT(vbd.incidentTets[k - 1] / 4, tet) << "tet order";
            }
        }
    }
}

TEST(VbdModel, NoTwoVerticesOfAColourShareATet) {
    const SimModel model = buildModel(vbdHangingBarScene());
    const VbdModel& vbd = model.vbd;
    std::vector<uint32_t> colourOf(vbd.particleCount, ~0u);
    uint32_t listed = 0;
    for (uint32_t c = 0; c < vbd.vertexColours.size(); ++c)
        for (uint32_t k = vbd.vertexColours[c].first; k < vbd.vertexColours[c].first + vbd.vertexColours[c].count;
             ++k) {
            const uint32_t r = vbd.vertexOrder[k] - vbd.firstParticle;
            ASSERT_LT(r, vbd.particleCount);
            EXPECT_EQ(colourOf[r], ~0u) << "listed twice";
            colourOf[r] = c;
            ++listed;
        }
    EXPECT_EQ(listed, vbd.particleCount);
    for (const gpu::VbdTet& t : vbd.tets) {
        std::set<uint32_t> colours;
        for (int role = 0; role < 4; ++role) colours.insert(colourOf[t.particles[role] - vbd.firstParticle]);
        EXPECT_EQ(colours.size(), 4u);
    }
    std::cout << fmt::format("[vbd] {} particles, {} tets, {} colours\n", vbd.particleCount, vbd.tets.size(),
                             vbd.vertexColours.size());
}

}  // namespace
}  // namespace vksim::test
