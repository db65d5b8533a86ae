// What the mass-spring solver gathers over (solvers/springs/spring_system.h): incidence
// lists, the block pattern and where each element's blocks go in it, the
// vertex colours; and the live material edit (solvers/springs/spring_materials.h), which
// must leave the model exactly as a fresh build with the new params.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <set>
#include <vector>

#include "../common/mesh_fixtures.h"
#include "solvers/model_builder.h"
#include "solvers/springs/spring_materials.h"
#include "spring_scenes.h"

namespace vksim {
namespace {

// Two spring cloths (a grid and a mesh-topology grid) after a PBD cloth, so
// that the range does not start at 0.
SimModel twoSpringCloths(const SpringClothParams& first = {}, const SpringClothParams& second = {
                                                                   .topology = SpringTopology::Mesh,
                                                                   .bending = SpringBending::Quadratic}) {
    Scene scene = test::clothScene({3, 3});
    ClothObject a = scene.cloths[0], b = scene.cloths[0];
    a.name = "grid";
    a.method = SolverMethod::Springs;
    a.grid.resolution = {7, 6};
    a.pinned = {{0, 0}, {6, 0}};
    a.springs = first;
    b.name = "mesh";
    b.method = SolverMethod::Springs;
    b.grid.resolution = {5, 8};
    b.springs = second;
    scene.cloths.push_back(a);
    scene.cloths.push_back(b);
    return buildModel(scene);
}

template <class T>
bool sameBytes(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Every array of the model, byte for byte, and the objects' params and counts.
void expectSameModel(const MsModel& a, const MsModel& b) {
    EXPECT_EQ(a.firstParticle, b.firstParticle);
    EXPECT_EQ(a.particleCount, b.particleCount);
    EXPECT_TRUE(sameBytes(a.springs, b.springs));
    EXPECT_TRUE(sameBytes(a.hinges, b.hinges));
    EXPECT_TRUE(sameBytes(a.quadratic, b.quadratic));
    EXPECT_TRUE(sameBytes(a.quadraticRows, b.quadraticRows));
    EXPECT_TRUE(sameBytes(a.quadraticUnit, b.quadraticUnit));
    EXPECT_TRUE(sameBytes(a.particles, b.particles));
    EXPECT_TRUE(sameBytes(a.incidentSprings, b.incidentSprings));
    EXPECT_TRUE(sameBytes(a.incidentHinges, b.incidentHinges));
    EXPECT_TRUE(sameBytes(a.blockRowStart, b.blockRowStart));
    EXPECT_TRUE(sameBytes(a.blockColumns, b.blockColumns));
    EXPECT_TRUE(sameBytes(a.vertexOrder, b.vertexOrder));
    EXPECT_TRUE(sameBytes(a.vertexColours, b.vertexColours));
    ASSERT_EQ(a.objects.size(), b.objects.size());
    for (size_t o = 0; o < a.objects.size(); ++o) {
        const SpringClothParams &p = a.objects[o].params, &q = b.objects[o].params;
        EXPECT_TRUE(p.topology == q.topology && p.shearDiagonals == q.shearDiagonals && p.stretch == q.stretch &&
                    p.shear == q.shear && p.bending == q.bending && p.bendingStiffness == q.bendingStiffness &&
                    p.drag == q.drag && p.compressionScale == q.compressionScale && p.slack == q.slack)
            << "object " << o;
        EXPECT_EQ(0, std::memcmp(&a.objects[o].counts, &b.objects[o].counts, sizeof(SpringCounts)));
    }
}

TEST(SpringSystem, IncidenceListsMatchTheElements) {
    const SimModel model = twoSpringCloths();
    const MsModel& ms = model.springs;
    ASSERT_EQ(ms.particles.size(), ms.particleCount);
    std::vector<uint32_t> springEnds(ms.springs.size(), 0), hingeRoles(ms.hinges.size(), 0);
    size_t quadraticSeen = 0;
    for (uint32_t r = 0; r < ms.particleCount; ++r) {
        const uint32_t global = ms.firstParticle + r;
        const gpu::MsParticle& p = ms.particles[r];
        for (uint32_t k = p.firstSpring; k < p.firstSpring + p.springCount; ++k) {
            const gpu::MsSpring& s = ms.springs[ms.incidentSprings[k].spring];
            EXPECT_TRUE(s.i == global || s.j == global);
            if (k > p.firstSpring) {
                EXPECT_LT(ms.incidentSprings[k - 1].spring, ms.incidentSprings[k].spring);
            }
            ++springEnds[ms.incidentSprings[k].spring];
        }
        for (uint32_t k = p.firstHinge; k < p.firstHinge + p.hingeCount; ++k) {
            const uint32_t entry = ms.incidentHinges[k];
            const gpu::MsHinge& h = ms.hinges[entry / 4];
            const uint32_t v[4] = {h.v0, h.v1, h.v2, h.v3};
            EXPECT_EQ(v[entry % 4], global);
            if (k > p.firstHinge) {
                EXPECT_LT(ms.incidentHinges[k - 1], entry);
            }
            ++hingeRoles[entry / 4];
        }
        for (uint32_t e = p.firstQuadratic; e < p.firstQuadratic + p.quadraticCount; ++e)
            EXPECT_EQ(ms.quadraticRows[e], global);
        EXPECT_EQ(p.firstQuadratic, quadraticSeen);
        quadraticSeen += p.quadraticCount;
    }
    EXPECT_EQ(quadraticSeen, ms.quadratic.size());
    for (uint32_t n : springEnds) EXPECT_EQ(n, 2u);
    for (uint32_t n : hingeRoles) EXPECT_EQ(n, 4u);
    EXPECT_EQ(ms.incidentSprings.size(), 2 * ms.springs.size());
    EXPECT_EQ(ms.incidentHinges.size(), 4 * ms.hinges.size());
}

TEST(SpringSystem, BlockPatternHoldsEveryNeighbourOnce) {
    const SimModel model = twoSpringCloths();
    const MsModel& ms = model.springs;
    ASSERT_EQ(ms.blockRowStart.size(), ms.particleCount + 1u);
    EXPECT_EQ(ms.blockRowStart.back(), ms.blockColumns.size());
    for (uint32_t r = 0; r < ms.particleCount; ++r) {
        const gpu::MsParticle& p = ms.particles[r];
        std::set<uint32_t> expected{r};
        for (uint32_t k = p.firstSpring; k < p.firstSpring + p.springCount; ++k) {
            const gpu::MsIncidentSpring& incident = ms.incidentSprings[k];
            const gpu::MsSpring& s = ms.springs[incident.spring];
            const uint32_t other = (s.i == ms.firstParticle + r ? s.j : s.i) - ms.firstParticle;
            expected.insert(other);
            EXPECT_EQ(ms.blockColumns[incident.block], other);
            EXPECT_GE(incident.block, ms.blockRowStart[r]);
            EXPECT_LT(incident.block, ms.blockRowStart[r + 1]);
        }
        for (uint32_t e = p.firstQuadratic; e < p.firstQuadratic + p.quadraticCount; ++e) {
            const uint32_t column = ms.quadratic[e].column - ms.firstParticle;
            expected.insert(column);
            EXPECT_EQ(ms.blockColumns[ms.quadratic[e].block], column);
            EXPECT_GE(ms.quadratic[e].block, ms.blockRowStart[r]);
            EXPECT_LT(ms.quadratic[e].block, ms.blockRowStart[r + 1]);
        }
        const std::vector<uint32_t> row(ms.blockColumns.begin() + ms.blockRowStart[r],
                                        ms.blockColumns.begin() + ms.blockRowStart[r + 1]);
        EXPECT_EQ(row, std::vector<uint32_t>(expected.begin(), expected.end())) << "row " << r;
        EXPECT_EQ(ms.blockColumns[p.diagonalBlock], r);
        EXPECT_GE(p.diagonalBlock, ms.blockRowStart[r]);
        EXPECT_LT(p.diagonalBlock, ms.blockRowStart[r + 1]);
    }
    // Symmetric pattern: (r, c) present iff (c, r) present.
    std::set<std::pair<uint32_t, uint32_t>> blocks;
    for (uint32_t r = 0; r < ms.particleCount; ++r)
        for (uint32_t k = ms.blockRowStart[r]; k < ms.blockRowStart[r + 1]; ++k) blocks.insert({r, ms.blockColumns[k]});
    for (auto [r, c] : blocks) EXPECT_TRUE(blocks.count({c, r})) << r << ", " << c;
}

TEST(SpringSystem, NoTwoParticlesOfAColourShareAnElement) {
    for (const SimModel& model : {twoSpringCloths(), buildModel(test::springClothScene({48, 48}))}) {
        const MsModel& ms = model.springs;
        std::vector<uint32_t> colourOf(ms.particleCount, ~0u);
        for (uint32_t c = 0; c < ms.vertexColours.size(); ++c) {
            const MsModel::Colour& color = ms.vertexColours[c];
            EXPECT_GT(color.count, 0u);
            for (uint32_t k = color.first; k < color.first + color.count; ++k) {
                const uint32_t local = ms.vertexOrder[k] - ms.firstParticle;
                ASSERT_LT(local, ms.particleCount);
                EXPECT_EQ(colourOf[local], ~0u) << "particle listed twice";
                colourOf[local] = c;
                if (k > color.first) {
                    EXPECT_LT(ms.vertexOrder[k - 1], ms.vertexOrder[k]);
                }
            }
        }
        for (uint32_t c : colourOf) EXPECT_NE(c, ~0u) << "particle without a colour";
        auto distinct = [&](std::vector<uint32_t> globals, const char* what, size_t index) {
            for (size_t a = 0; a < globals.size(); ++a)
                for (size_t b = a + 1; b < globals.size(); ++b)
                    EXPECT_NE(colourOf[globals[a] - ms.firstParticle], colourOf[globals[b] - ms.firstParticle])
                        << what << " " << index;
        };
        for (size_t s = 0; s < ms.springs.size(); ++s) distinct({ms.springs[s].i, ms.springs[s].j}, "spring", s);
        for (size_t h = 0; h < ms.hinges.size(); ++h)
            distinct({ms.hinges[h].v0, ms.hinges[h].v1, ms.hinges[h].v2, ms.hinges[h].v3}, "hinge", h);
        for (size_t e = 0; e < ms.quadratic.size(); ++e)
            if (ms.quadratic[e].column != ms.quadraticRows[e])
                distinct({ms.quadratic[e].column, ms.quadraticRows[e]}, "quadratic entry", e);
        std::cout << ms.particleCount << " particles in " << ms.vertexColours.size() << " colours\n";
    }
}

TEST(SpringSystem, BuildIsDeterministic) {
    expectSameModel(twoSpringCloths().springs, twoSpringCloths().springs);
    MsModel rebuilt = twoSpringCloths().springs;
    buildSpringSystem(rebuilt);  // idempotent
    expectSameModel(rebuilt, twoSpringCloths().springs);
}

TEST(SpringSystem, ElementOutsideTheRangeIsRejected) {
    MsModel ms = twoSpringCloths().springs;
    ms.springs[0].j = ms.firstParticle + ms.particleCount;
    EXPECT_THROW(buildSpringSystem(ms), std::invalid_argument);
}

TEST(SpringMaterials, EditEqualsAFreshBuild) {
    const SpringClothParams start{};
    for (SpringBending bending :
         {SpringBending::None, SpringBending::Springs, SpringBending::Dihedral, SpringBending::Quadratic}) {
        SpringClothParams grid{.stretch = 1234.5f,
                               .shear = 77.0f,
                               .bending = bending,
                               .bendingStiffness = 3.25f,
                               .drag = 0.125f,
                               .compressionScale = 0.3f,
                               .slack = 0.05f};
        SpringClothParams mesh = grid;
        mesh.topology = SpringTopology::Mesh;
        mesh.shearDiagonals = 1;  // ignored by the Mesh topology
        SCOPED_TRACE(testing::Message() << "bending " << int(bending));
        const SimModel fresh = twoSpringCloths(grid, mesh);
        SimModel edited = twoSpringCloths(start, {.topology = SpringTopology::Mesh});
        setSpringParams(edited.springs, 0, grid);
        setSpringParams(edited.springs, 1, mesh);
        expectSameModel(edited.springs, fresh.springs);
    }
}

TEST(SpringMaterials, OnlyTheActiveBendingHasStiffness) {
    for (SpringBending bending :
         {SpringBending::None, SpringBending::Springs, SpringBending::Dihedral, SpringBending::Quadratic}) {
        const MsModel ms = buildModel(test::springClothScene({5, 4}, {.bending = bending, .bendingStiffness = 7.0f}))
                               .springs;
        bool bendSprings = false, hinges = false, quadratic = false;
        for (const gpu::MsSpring& s : ms.springs)
            if (s.kind == gpu::kSpringBend) bendSprings = bendSprings || s.stiffness != 0.0f;
        for (const gpu::MsHinge& h : ms.hinges) hinges = hinges || h.stiffness != 0.0f;
        for (const gpu::MsQuadraticEntry& q : ms.quadratic) quadratic = quadratic || q.value != 0.0f;
        EXPECT_EQ(bendSprings, bending == SpringBending::Springs);
        EXPECT_EQ(hinges, bending == SpringBending::Dihedral);
        EXPECT_EQ(quadratic, bending == SpringBending::Quadratic);
        for (const gpu::MsQuadraticEntry& q : ms.quadratic) EXPECT_FALSE(std::signbit(q.value) && q.value == 0.0f);
    }
}

TEST(SpringMaterials, TopologyChangesAndBadValuesAreRejected) {
    SimModel model = twoSpringCloths();
    EXPECT_THROW(setSpringParams(model.springs, 0, {.shearDiagonals = 1}), std::invalid_argument);
    EXPECT_THROW(setSpringParams(model.springs, 0, {.topology = SpringTopology::Mesh}), std::invalid_argument);
    EXPECT_THROW(setSpringParams(model.springs, 1, {.topology = SpringTopology::Grid}), std::invalid_argument);
    EXPECT_THROW(setSpringParams(model.springs, 0, {.stretch = -1.0f}), std::invalid_argument);
    EXPECT_THROW(setSpringParams(model.springs, 0, {.compressionScale = 1.5f}), std::invalid_argument);
    EXPECT_THROW(setSpringParams(model.springs, 0, {.slack = 1.0f}), std::invalid_argument);
    EXPECT_THROW(setSpringParams(model.springs, 2, {}), std::invalid_argument);
    const MsModel before = model.springs;
    setSpringParams(model.springs, 0, {});  // the params it was built with
    expectSameModel(model.springs, before);
}

}  // namespace
}  // namespace vksim
