// The cluster plan (solvers/pbd/pbd_clusters.h): every constraint is projected by
// exactly one sweep; a cluster's phases hold only constraints inside its
// particle range, one colour each; the permutation stays inside each colour
// and leaves the overflow group alone; a grid cloth leaves the coloured
// sweep nothing; objects that fit one cluster keep the model's order.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "cloth_scenes.h"
#include "scene/scene_loader.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_clusters.h"

namespace vksim {
namespace {

std::vector<uint32_t> particlesOf(const gpu::DistanceConstraint& c) { return {c.p0, c.p1}; }
std::vector<uint32_t> particlesOf(const gpu::BendingConstraint& c) {
    return {c.particles.x, c.particles.y, c.particles.z, c.particles.w};
}
std::vector<uint32_t> particlesOf(const gpu::AttachmentConstraint& c) { return {c.particle}; }

// Which colour range (its index; colours.size() for the overflow group) holds entry k.
size_t groupOf(const ColourGroups& groups, uint32_t k) {
    for (size_t c = 0; c < groups.colours.size(); ++c)
        if (k >= groups.colours[c].first && k < groups.colours[c].first + groups.colours[c].count) return c;
    return groups.colours.size();
}

struct Coverage {
    size_t first = 0, second = 0, coloured = 0;
};

template <typename Constraint>
Coverage expectFamilyCovered(const ClusterPlan& plan, const std::vector<Constraint>& constraints,
                             const ColourGroups& groups, const FamilyClusters& family, uint32_t f) {
    // A permutation within each colour; the overflow group in place.
    EXPECT_EQ(family.order.size(), constraints.size());
    std::vector<uint32_t> sorted = family.order;
    std::sort(sorted.begin(), sorted.end());
    for (uint32_t k = 0; k < sorted.size(); ++k) EXPECT_EQ(sorted[k], k) << "not a permutation";
    for (uint32_t k = 0; k < family.order.size(); ++k) {
        EXPECT_EQ(groupOf(groups, k), groupOf(groups, family.order[k])) << "entry " << k << " left its colour";
        if (groupOf(groups, k) == groups.colours.size()) {
            EXPECT_EQ(family.order[k], k) << "overflow group reordered";
        }
    }
    // Each entry in exactly one place: a cluster phase or the coloured sweep.
    std::vector<int> seen(constraints.size(), 0);
    Coverage coverage;
    for (size_t g = 0; g < plan.clusters.size(); ++g) {
        const gpu::WorkgroupObject& cluster = plan.clusters[g];
        EXPECT_LE(cluster.particleCount, plan.clusterParticles);
        const ClusterSweep sweep = g < plan.firstSweepClusters ? ClusterSweep::First : ClusterSweep::Second;
        size_t lastGroup = 0;
        for (uint32_t p = cluster.firstPhase; p < cluster.firstPhase + cluster.phaseCount; ++p) {
            const gpu::WorkgroupPhase& phase = plan.phases.at(p);
            EXPECT_EQ(phase.serial, 0u);
            if (phase.count[f] == 0) continue;  // a phase of the other families
            const size_t group = groupOf(groups, phase.first[f]);
            EXPECT_LT(group, groups.colours.size()) << "a cluster took overflow constraints";
            EXPECT_EQ(group, groupOf(groups, phase.first[f] + phase.count[f] - 1)) << "a phase spans two colours";
            EXPECT_GE(group, lastGroup) << "phases out of colour order";
            lastGroup = group + 1;
            for (uint32_t k = phase.first[f]; k < phase.first[f] + phase.count[f]; ++k) {
                ++seen[k];
                const uint32_t j = family.order[k];
                EXPECT_EQ(family.sweepOf[j], sweep);
                for (uint32_t particle : particlesOf(constraints[j])) {
                    EXPECT_GE(particle, cluster.firstParticle);
                    EXPECT_LT(particle, cluster.firstParticle + cluster.particleCount);
                }
                ++(sweep == ClusterSweep::First ? coverage.first : coverage.second);
            }
        }
    }
    auto coloured = [&](ColourRange range) {
        for (uint32_t k = range.first; k < range.first + range.count; ++k) {
            ++seen[k];
            EXPECT_EQ(family.sweepOf[family.order[k]], ClusterSweep::Coloured);
            ++coverage.coloured;
        }
    };
    EXPECT_EQ(family.coloured.colours.size(), groups.colours.size());
    for (size_t c = 0; c < family.coloured.colours.size(); ++c) {
        EXPECT_EQ(groupOf(groups, family.coloured.colours[c].first), family.coloured.colours[c].count ? c : c + 1)
            << "the coloured share of colour " << c << " lies outside it";
        coloured(family.coloured.colours[c]);
    }
    coloured(family.coloured.overflow);
    EXPECT_EQ(family.coloured.overflow.first, groups.overflow.first);
    EXPECT_EQ(family.coloured.overflow.count, groups.overflow.count);
    for (size_t k = 0; k < seen.size(); ++k) EXPECT_EQ(seen[k], 1) << "entry " << k << " projected " << seen[k] << " times";
    return coverage;
}

void expectPlanCovers(const SimModel& model, const ClusterPlan& plan) {
    // Every phase holds something; per family, the checks above.
    for (const gpu::WorkgroupPhase& phase : plan.phases)
        EXPECT_GT(phase.count[0] + phase.count[1] + phase.count[2], 0u) << "an empty phase";
    expectFamilyCovered(plan, model.pbd.distance, model.pbd.distanceGroups, plan.distance, gpu::kPbdFamilyDistance);
    expectFamilyCovered(plan, model.pbd.bending, model.pbd.bendingGroups, plan.bending, gpu::kPbdFamilyBending);
    expectFamilyCovered(plan, model.pbd.attachments, model.pbd.attachmentGroups, plan.attachment,
                        gpu::kPbdFamilyAttachment);
}

// A 64 x 64 cloth (4096 particles) in clusters of at most 1000: five of 820
// (the last 816), so the first partition cuts it at 820, 1640, 2460, 3280,
// the second at 410, 1230, ..., 2870, 3690 (its clusters below 410 and from
// 3690 hold no cut of the first, only particles for the collisions).
// Its constraints span at most two rows and two columns (130 particles),
// less than half a cluster, so the two sweeps hold every one of them.
TEST(ClusterPlan, GridClothNeedsNoColouredSweep) {
    Scene scene = test::clothScene({64, 64});
    scene.cloths[0].pinned = {{0, 0}, {63, 0}};
    scene.cloths[0].pinsAsAttachments = true;
    const SimModel model = buildModel(scene);
    const ClusterPlan plan = buildClusterPlan(model, 1000);
    EXPECT_EQ(plan.firstSweepClusters, 5u);
    EXPECT_EQ(plan.secondSweepClusters, 6u);  // [0, 410), [410, 1230) ... [2870, 3690), [3690, 4096)
    EXPECT_EQ(plan.clusters[4].particleCount, 816u);
    EXPECT_EQ(plan.clusters[5].firstParticle, 0u);
    EXPECT_EQ(plan.clusters[5].particleCount, 410u);
    EXPECT_EQ(plan.clusters[6].firstParticle, 410u);
    EXPECT_EQ(plan.clusters.back().firstParticle, 3690u);
    EXPECT_EQ(plan.clusters.back().particleCount, 406u);
    EXPECT_TRUE(plan.secondSweepCoversEveryParticle);
    ASSERT_GT(model.pbd.attachments.size(), 0u);
    expectPlanCovers(model, plan);
    const Coverage d =
        expectFamilyCovered(plan, model.pbd.distance, model.pbd.distanceGroups, plan.distance, gpu::kPbdFamilyDistance);
    EXPECT_EQ(d.coloured, 0u);
    // The edges across the first partition's four cuts go to the second sweep.
    EXPECT_GT(d.second, 0u);
    EXPECT_GT(d.first, 10 * d.second);
    for (const FamilyClusters* family : {&plan.bending, &plan.attachment})
        for (ClusterSweep s : family->sweepOf) EXPECT_NE(s, ClusterSweep::Coloured);
}

// Constraints longer than half a cluster: on a 128-wide grid an edge
// between rows joins particles 128 apart, so with clusters of at most 200
// (1024 particles in six of 171) the edge from 300 to 428 crosses the first
// partition's cut at 342 and the second's at 427, and is left to the
// coloured sweep.
TEST(ClusterPlan, LongConstraintsGoToTheColouredSweep) {
    const SimModel model = buildModel(test::clothScene({128, 8}));
    const ClusterPlan plan = buildClusterPlan(model, 200);
    expectPlanCovers(model, plan);
    bool found = false;
    for (size_t j = 0; j < model.pbd.distance.size(); ++j)
        if (std::min(model.pbd.distance[j].p0, model.pbd.distance[j].p1) == 300 &&
            std::max(model.pbd.distance[j].p0, model.pbd.distance[j].p1) == 428) {
            EXPECT_EQ(plan.distance.sweepOf[j], ClusterSweep::Coloured);
            found = true;
        }
    EXPECT_TRUE(found) << "no edge from 300 to 428";
}

// Objects that fit one cluster: one cluster each in both partitions,
// nothing for the second sweep but the collisions, and the model's order
// (the workgroup plan is cut from it). A PD object gets no cluster, and the
// second partition still covers every PBD particle.
TEST(ClusterPlan, SmallObjectsKeepTheModelOrder) {
    const SimModel model = buildModel(test::threeObjects());
    const ClusterPlan plan = buildClusterPlan(model, 100);
    EXPECT_EQ(plan.firstSweepClusters, 2u);
    EXPECT_EQ(plan.secondSweepClusters, 2u);
    EXPECT_TRUE(plan.secondSweepCoversEveryParticle);
    expectPlanCovers(model, plan);
    for (const FamilyClusters* family : {&plan.distance, &plan.bending, &plan.attachment})
        for (uint32_t k = 0; k < family->order.size(); ++k) EXPECT_EQ(family->order[k], k);
}

// The second of two large objects: its clusters start at its own first
// particle, and no cluster spans the two.
TEST(ClusterPlan, TwoLargeObjects) {
    const SimModel model = buildModel(parseScene(R"({
        "objects": [
          { "type": "cloth", "name": "a", "size": [1, 1], "resolution": [30, 30], "position": [0, 1, 0], "mass": 1 },
          { "type": "cloth", "name": "b", "size": [1, 1], "resolution": [25, 40], "position": [2, 1, 0], "mass": 1 } ] })",
                                                 "two.json"));
    const ClusterPlan plan = buildClusterPlan(model, 256);
    expectPlanCovers(model, plan);
    std::set<uint32_t> starts;
    for (const gpu::WorkgroupObject& cluster : plan.clusters) {
        starts.insert(cluster.firstParticle);
        const bool inA = cluster.firstParticle + cluster.particleCount <= 900;
        const bool inB = cluster.firstParticle >= 900;
        EXPECT_TRUE(inA || inB) << "a cluster at " << cluster.firstParticle << " spans both objects";
    }
    EXPECT_TRUE(starts.count(900));
    EXPECT_TRUE(starts.count(900 + 125));  // b: 1000 particles in four clusters of 250
    EXPECT_THROW(buildClusterPlan(model, 1), std::invalid_argument);
}

}  // namespace
}  // namespace vksim
