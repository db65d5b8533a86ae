// Splitting torn vertices on the CPU (solvers/pbd/pbd_splitting.h;
// docs/physics.md §1, "Tearing", "Splitting vertices"): the capacity key
// reserves inert spare particles at the end of the cloth's range; the
// split reference cuts a 3 x 3 sheet along its middle row into two pieces,
// keeping the mass, and past its capacity drops the triangles of the
// vertices it cannot split.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "scene/scene_loader.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_splitting.h"
#include "solvers/sim_model.h"

namespace vksim {
namespace {

TEST(TearingSplitRule, CapacityReservesInertSpareParticles) {
    const Scene scene = parseScene(R"({ "objects": [
        { "type": "cloth", "name": "a", "resolution": [4, 4], "tearing": { "strain": 0.2, "capacity": 0.25 } },
        { "type": "cloth", "name": "b", "resolution": [3, 3], "tearing": { "strain": 0.2, "capacity": 5 } },
        { "type": "cloth", "name": "c", "resolution": [3, 3], "tearing": { "strain": 0.2 } } ] })",
                                   "inline/split.json");
    EXPECT_FLOAT_EQ(scene.cloths[0].tearing.capacity, 0.25f);
    EXPECT_FLOAT_EQ(scene.cloths[2].tearing.capacity, 0.0f);
    const SimModel model = buildModel(scene);
    ASSERT_EQ(model.pbd.splitCloths.size(), 2u);
    const uint32_t spares[] = {4, 5};  // a quarter of 16; five
    for (uint32_t c = 0; c < 2; ++c) {
        const gpu::SplitCloth& cloth = model.pbd.splitCloths[c];
        const ObjectRange& object = model.objects[c];
        EXPECT_EQ(cloth.spareCount, spares[c]);
        EXPECT_EQ(cloth.firstParticle, object.firstParticle);
        EXPECT_EQ(object.particleCount, cloth.vertexCount + cloth.spareCount);
        for (uint32_t i = cloth.vertexCount; i < cloth.vertexCount + cloth.spareCount; ++i) {
            const uint32_t p = cloth.firstParticle + i;
            EXPECT_EQ(model.positions[p], glm::vec4(glm::vec3(model.positions[cloth.firstParticle]), 0.0f));
            EXPECT_EQ(model.adjacencyOffsets[p], model.adjacencyOffsets[p + 1]);  // in no triangle
        }
    }
    EXPECT_EQ(model.pbd.splitCloths[1].firstThread, 16u + 4u);
    EXPECT_EQ(model.objects[2].particleCount, 9u);
}

// A 3 x 3 grid (vertex = 3 row + column), every stretch constraint along
// row 1 broken: the triangles above and below that row meet at its three
// vertices only through broken edges, so each splits in two.
struct CutSheet {
    SimModel model;
    SplitTopology topology;
    SplitState state;
};

CutSheet cutSheet(float capacity) {
    Scene scene = parseScene(R"({ "objects": [ { "type": "cloth", "resolution": [3, 3], "size": [1, 1],
        "tearing": { "strain": 0.2 } } ] })",
                             "inline/cut.json");
    scene.cloths[0].tearing.capacity = capacity;
    CutSheet s{buildModel(scene), {}, {}};
    s.topology = buildSplitTopology(s.model, s.model.pbd.distance, s.model.pbd.bending);
    for (const glm::vec4& x : s.model.positions) {
        s.state.x.emplace_back(x);
        s.state.p.emplace_back(x);
        s.state.v.emplace_back(0.0);
    }
    s.state.triangles = s.model.triangles;
    for (uint32_t i = 0; i < s.model.particleCount(); ++i) s.state.adjacencyRows.push_back(i);
    s.state.distance = s.model.pbd.distance;
    s.state.bending = s.model.pbd.bending;
    s.state.fill.assign(4, 0);
    for (gpu::DistanceConstraint& d : s.state.distance)
        if (std::min(d.p0, d.p1) >= 3 && std::max(d.p0, d.p1) <= 5) d.restLength = -d.restLength;
    return s;
}

double massOf(const SplitState& s) {
    double m = 0.0;
    for (const glm::dvec4& x : s.x) m += x.w > 0.0 ? 1.0 / x.w : 0.0;
    return m;
}

TEST(TearingSplitRule, CutAlongARowSplitsItsVertices) {
    CutSheet s = cutSheet(4.0f);
    const double mass = massOf(s.state);
    for (uint32_t v = 3; v <= 5; ++v) EXPECT_EQ(fanCount(s.state, s.topology, v), 2u) << v;
    splitReference(s.state, s.topology);
    EXPECT_EQ(s.state.fill[0], 3u);
    EXPECT_EQ(s.state.fill[1], 0u);
    for (uint32_t i = 0; i < 13; ++i) EXPECT_LE(fanCount(s.state, s.topology, i), 1u) << i;
    // Rows 0-1 keep vertices 3-5 (their triangles come first); rows 1-2 took 9, 10, 11, copies of them.
    for (uint32_t k = 0; k < 3; ++k) {
        EXPECT_EQ(glm::dvec3(s.state.x[9 + k]), glm::dvec3(s.state.x[3 + k]));
        EXPECT_EQ(s.state.adjacencyRows[9 + k], 3 + k);
    }
    EXPECT_EQ(s.state.x[12].w, 0.0);  // the fourth spare, unused
    for (size_t k = 0; k < s.state.triangles.size(); k += 3) {
        const uint32_t* t = &s.state.triangles[k];
        const bool lower = std::max({t[0], t[1], t[2]}) >= 6;
        for (int e = 0; e < 3; ++e) EXPECT_FALSE(lower && t[e] >= 3 && t[e] <= 5) << "triangle " << k / 3;
    }
    // No whole constraint joins the two pieces; the broken ones stayed on row 1.
    for (const gpu::DistanceConstraint& d : s.state.distance) {
        const bool upper = std::max(d.p0, d.p1) <= 5, lower = std::min(d.p0, d.p1) >= 6;
        if (d.restLength > 0.0f) {
            EXPECT_TRUE(upper || lower) << d.p0 << "-" << d.p1;
        }
    }
    EXPECT_NEAR(massOf(s.state), mass, 1e-12 * mass);
    // Nothing more to split.
    const std::vector<uint32_t> triangles = s.state.triangles;
    splitReference(s.state, s.topology);
    EXPECT_EQ(s.state.fill[0], 3u);
    EXPECT_EQ(s.state.triangles, triangles);
}

// Two spare particles for three vertices that need one each: vertices 3
// and 4 split (the scan's order), vertex 5 keeps its first fan and drops
// the triangles of the other.
TEST(TearingSplitRule, PastTheCapacityTheOtherFansAreDropped) {
    CutSheet s = cutSheet(2.0f);
    splitReference(s.state, s.topology);
    EXPECT_EQ(s.state.fill[0], 2u);
    EXPECT_EQ(s.state.fill[1], 1u);
    EXPECT_GT(s.state.fill[2], 0u);
    uint32_t dropped = 0;
    for (size_t k = 0; k < s.state.triangles.size(); k += 3) {
        const uint32_t* t = &s.state.triangles[k];
        if (t[0] == t[1] && t[1] == t[2]) ++dropped;
        else EXPECT_TRUE(t[0] != t[1] && t[1] != t[2] && t[0] != t[2]);
    }
    EXPECT_EQ(dropped, s.state.fill[2]);
    for (uint32_t i = 0; i < 11; ++i) EXPECT_LE(fanCount(s.state, s.topology, i), 1u) << i;
}

}  // namespace
}  // namespace vksim
