// The workgroup plan (solvers/pbd/workgroup_plan.h): per PBD object, the
// phases of one iteration, over the constraint arrays in the cluster plan's
// order. Each phase lies inside one colour (or the overflow group) of its
// family and holds only the object's constraints; together an object's
// phases cover each of its constraints exactly once, in the per-colour
// path's colour order; objects of other solvers get none.
#include <gtest/gtest.h>

#include <set>

#include <fmt/format.h>

#include "cloth_scenes.h"
#include "scene/scene.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_clusters.h"
#include "solvers/pbd/workgroup_plan.h"

namespace vksim {
namespace {

// Which colour range (its index; colours.size() for the overflow group) holds constraint j.
size_t groupOfItem(const ColourGroups& groups, uint32_t j) {
    for (size_t c = 0; c < groups.colours.size(); ++c)
        if (j >= groups.colours[c].first && j < groups.colours[c].first + groups.colours[c].count) return c;
    return groups.colours.size();
}

template <typename Constraint, typename ParticlesOf>
void expectFamilyCovered(const WorkgroupPlan& plan, const std::vector<Constraint>& constraints,
                         const ColourGroups& groups, uint32_t f, ParticlesOf particlesOf) {
    std::set<uint32_t> seen;
    for (const gpu::WorkgroupObject& object : plan.objects) {
        size_t lastGroup = 0;
        for (uint32_t k = object.firstPhase; k < object.firstPhase + object.phaseCount; ++k) {
            const gpu::WorkgroupPhase& phase = plan.phases.at(k);
            ASSERT_GT(phase.count[0] + phase.count[1] + phase.count[2], 0u) << "an empty phase";
            if (phase.count[f] == 0) continue;  // a phase of the other families
            const size_t group = groupOfItem(groups, phase.first[f]);
            EXPECT_EQ(group, groupOfItem(groups, phase.first[f] + phase.count[f] - 1)) << "a phase spans two colours";
            EXPECT_EQ(phase.serial, group == groups.colours.size() ? 1u : 0u);
            EXPECT_GE(group, lastGroup) << "phases out of colour order";
            lastGroup = group;  // an object may have several runs of one colour
            for (uint32_t j = phase.first[f]; j < phase.first[f] + phase.count[f]; ++j) {
                EXPECT_TRUE(seen.insert(j).second) << "constraint " << j << " in two phases";
                for (uint32_t p : particlesOf(constraints[j])) {
                    EXPECT_GE(p, object.firstParticle);
                    EXPECT_LT(p, object.firstParticle + object.particleCount);
                }
            }
        }
    }
    EXPECT_EQ(seen.size(), constraints.size()) << "constraints left out";
}

// Over the model's order (clusters that hold whole objects: the cluster
// plan permutes nothing), and over the order of clusters that cut both
// objects, where an object's share of a colour is several runs.
// Phases of an object that hold family f.
uint32_t phasesOf(const WorkgroupPlan& plan, const gpu::WorkgroupObject& object, uint32_t f) {
    uint32_t n = 0;
    for (uint32_t k = object.firstPhase; k < object.firstPhase + object.phaseCount; ++k) n += plan.phases[k].count[f] > 0;
    return n;
}

TEST(WorkgroupPlan, EachObjectsPhasesCoverItsConstraintsColourByColour) {
    for (PbdColouring colouring : {PbdColouring::PerFamily, PbdColouring::AcrossFamilies}) {
        Scene scene = test::threeObjects();
        scene.solver.pbd.colouring = colouring;
        const SimModel model = buildModel(scene);
        for (uint32_t clusterParticles : {1000u, 12u}) {
            SCOPED_TRACE(fmt::format("{} colouring, clusters of at most {} particles",
                                     kPbdColouringNames[static_cast<size_t>(colouring)], clusterParticles));
            const ClusterPlan arrays = buildClusterPlan(model, clusterParticles);
            const WorkgroupPlan plan = buildWorkgroupPlan(model, arrays);
            ASSERT_EQ(plan.objects.size(), 2u);  // the PD cloth is not a PBD object
            EXPECT_EQ(plan.objects[0].particleCount, 35u);
            EXPECT_EQ(plan.objects[1].particleCount, 54u);
            EXPECT_GT(phasesOf(plan, plan.objects[0], gpu::kPbdFamilyAttachment), 0u);
            EXPECT_EQ(phasesOf(plan, plan.objects[1], gpu::kPbdFamilyAttachment), 0u);
            uint32_t distancePhases = 0;
            for (const gpu::WorkgroupObject& object : plan.objects)
                distancePhases += phasesOf(plan, object, gpu::kPbdFamilyDistance);
            const size_t colours = model.pbd.distanceGroups.colours.size();
            if (clusterParticles == 12u && colouring == PbdColouring::PerFamily) {
                EXPECT_GT(distancePhases, 2 * colours) << "no colour of an object in several runs";
            }
            expectFamilyCovered(plan, permuted(model.pbd.distance, arrays.distance), model.pbd.distanceGroups,
                                gpu::kPbdFamilyDistance,
                                [](const gpu::DistanceConstraint& c) { return std::vector<uint32_t>{c.p0, c.p1}; });
            expectFamilyCovered(plan, permuted(model.pbd.bending, arrays.bending), model.pbd.bendingGroups,
                                gpu::kPbdFamilyBending, [](const gpu::BendingConstraint& c) {
                                    return std::vector<uint32_t>{c.particles.x, c.particles.y, c.particles.z,
                                                                 c.particles.w};
                                });
            expectFamilyCovered(
                plan, permuted(model.pbd.attachments, arrays.attachment), model.pbd.attachmentGroups,
                gpu::kPbdFamilyAttachment,
                [](const gpu::AttachmentConstraint& c) { return std::vector<uint32_t>{c.particle}; });
            // Across families an object's phases are its colours: no more
            // phases than the colours (and overflow), several families in some.
            if (colouring == PbdColouring::AcrossFamilies && clusterParticles == 1000u) {
                bool shared = false;
                for (const gpu::WorkgroupPhase& phase : plan.phases)
                    shared = shared || (phase.count[0] > 0 && phase.count[1] > 0);
                EXPECT_TRUE(shared) << "no phase holds two families";
                for (const gpu::WorkgroupObject& object : plan.objects)
                    EXPECT_LE(object.phaseCount, colours + 1);
            }
        }
    }
}

TEST(WorkgroupPlan, CapacityIsTwelveBytesAParticle) {
    EXPECT_EQ(workgroupParticleCapacity(32768), 2730u);  // lavapipe: a 48x48 cloth (2304) fits, 64x64 does not
    EXPECT_EQ(workgroupParticleCapacity(49152), 4096u);  // 48 KiB: exactly 64x64
}

// On a CPU device a cluster is half a workgroup (one core runs a workgroup there: a 48 x 48 cloth is
// (the span does not matter there: its sweep works in device memory)
// then 2 clusters of 1152), or an eighth of the largest object where that is
// more (a 256 x 256 cloth in 8 clusters of 8192, not 49 of 1365).
TEST(WorkgroupPlan, ClustersOnACpuDeviceAreHalfAWorkgroupOrAnEighthOfTheLargestObject) {
    EXPECT_EQ(clusterParticleCapacity(32768, true, 2304, 1000), 1365u);
    EXPECT_EQ(clusterParticleCapacity(32768, true, 8 * 1365, 1000), 1365u);
    EXPECT_EQ(clusterParticleCapacity(32768, true, 8 * 1365 + 1, 1000), 1366u);
    EXPECT_EQ(clusterParticleCapacity(32768, true, 65536, 1000), 8192u);
    EXPECT_EQ(clusterParticleCapacity(24, true, 8, 1000), 2u);  // never below a constraint's two particles
}

// On a GPU the largest object in as many equal clusters as keep each at
// least 256 particles and twice the largest constraint span (two rows of a
// grid cloth), at most a workgroup (48 KiB: 4096).
TEST(WorkgroupPlan, ClustersOnAGpuAreTheSmallestThatHoldEveryConstraint) {
    EXPECT_EQ(clusterParticleCapacity(49152, false, 48 * 48, 2 * 48), 256u);  // 9 clusters
    EXPECT_EQ(clusterParticleCapacity(49152, false, 128 * 128, 2 * 128), 512u);
    EXPECT_EQ(clusterParticleCapacity(49152, false, 256 * 256, 2 * 256), 1024u);
    EXPECT_EQ(clusterParticleCapacity(49152, false, 1024 * 1024, 2 * 1024), 4096u);
    EXPECT_EQ(clusterParticleCapacity(49152, false, 2048 * 2048, 2 * 2048), 4096u);  // past a workgroup
    EXPECT_EQ(clusterParticleCapacity(49152, false, 1000, 10), 334u);   // 3 clusters, not 4 of 250
    EXPECT_EQ(clusterParticleCapacity(49152, false, 100, 10), 256u);    // fits one
    // Each grid cloth's plan leaves the coloured sweep nothing.
    for (uint32_t side : {48u, 100u, 128u, 256u}) {
        const SimModel model = buildModel(test::clothScene({side, side}));
        const uint32_t capacity =
            clusterParticleCapacity(49152, false, side * side, largestConstraintSpan(model));
        const ClusterPlan plan = buildClusterPlan(model, capacity);
        EXPECT_GT(plan.firstSweepClusters, 1u) << side;
        for (const FamilyClusters* family : {&plan.distance, &plan.bending})
            for (ClusterSweep sweep : family->sweepOf) ASSERT_NE(sweep, ClusterSweep::Coloured) << side;
    }
}

// Contacts fit too: the workgroup path steps them substep by substep and
// projects them after its solve (solvers/pbd/workgroup_path.h).
TEST(WorkgroupPlan, MisfitNamesTheFirstObjectTooBig) {
    Scene scene = test::threeObjects();
    scene.cloths[0].contacts = {.enabled = true, .thickness = 0.01f, .self = true, .friction = 0.3f};
    const SimModel model = buildModel(scene);
    EXPECT_FALSE(workgroupMisfit(model, 54).has_value());
    const auto misfit = workgroupMisfit(model, 40);
    ASSERT_TRUE(misfit.has_value());
    EXPECT_EQ(*misfit, "'b' has 54 particles and one workgroup holds at most 40 on this device "
                       "(maxComputeSharedMemorySize / 12 bytes)");
}

// A workgroup steps its object through the whole frame; rigid bodies take
// the particles' impulses after every substep and iteration (docs/physics.md
// §11, "Two-way coupling"), so a world with bodies fits no workgroup.
TEST(WorkgroupPlan, BodiesInTheSceneFitNoWorkgroup) {
    Scene scene = test::threeObjects();
    for (int b = 0; b < 2; ++b) {
        BodyDesc body;
        body.name = fmt::format("body {}", b);
        body.source = fmt::format("/bodies/{}", b);
        body.position = glm::vec3(3.0f * float(b), -2.0f, 0.0f);
        scene.bodies.push_back(body);
        const auto misfit = workgroupMisfit(buildModel(scene), 1000);
        ASSERT_TRUE(misfit.has_value());
        EXPECT_EQ(*misfit, b == 0 ? "the scene has 1 rigid body, which exchanges impulses with the particles every "
                                    "substep"
                                  : "the scene has 2 rigid bodies, which exchange impulses with the particles every "
                                    "substep");
    }
}

// The CPU cluster sweep reads each array as one texel view of 16-byte
// texels: a bending constraint is 3 of them, a particle 1. The first array
// past the device's maxTexelBufferElements is named with its count.
TEST(WorkgroupPlan, TexelMisfitNamesTheFirstArrayPastTheTexelLimit) {
    const SimModel model = buildModel(test::threeObjects());
    uint64_t most = model.positions.size();
    most = std::max<uint64_t>(most, model.pbd.distance.size());
    most = std::max<uint64_t>(most, 3 * model.pbd.bending.size());
    ASSERT_GT(3 * model.pbd.bending.size(), model.pbd.distance.size());  // bending is the largest here
    ASSERT_GT(3 * model.pbd.bending.size(), model.positions.size());
    EXPECT_FALSE(clusterTexelMisfit(model, static_cast<uint32_t>(most)).has_value());
    const auto misfit = clusterTexelMisfit(model, static_cast<uint32_t>(most - 1));
    ASSERT_TRUE(misfit.has_value());
    EXPECT_EQ(*misfit, fmt::format("its {} bending constraints are {} texels of 16 bytes, and this device's texel "
                                   "buffers hold at most {}",
                                   model.pbd.bending.size(), 3 * model.pbd.bending.size(), most - 1));
}

// A shape-matched object keeps shape matching's scratch (a vec4 per
// invocation) after its positions in the shared array: 256 invocations
// take 342 particles' worth, 16 take 22. The plan points the object at its group.
TEST(WorkgroupPlan, AShapeMatchedObjectLeavesRoomForItsSums) {
    Scene scene = test::threeObjects();
    scene.cloths[2].shapeMatching.enabled = true;  // 'b', 54 particles
    const SimModel model = buildModel(scene);
    EXPECT_EQ(shapeMatchScratchParticles(256), 342u);
    EXPECT_EQ(shapeMatchScratchParticles(16), 22u);
    EXPECT_FALSE(workgroupMisfit(model, 76, 22).has_value());
    const auto misfit = workgroupMisfit(model, 75, 22);
    ASSERT_TRUE(misfit.has_value());
    EXPECT_EQ(*misfit, "'b' has 54 particles and one workgroup holds at most 53 on this device "
                       "(maxComputeSharedMemorySize / 12 bytes, less 22 for shape matching's sums)");
    const WorkgroupPlan plan = buildWorkgroupPlan(model, buildClusterPlan(model, 1000));
    ASSERT_EQ(plan.objects.size(), 2u);
    EXPECT_EQ(plan.objects[0].shapeMatchGroup, gpu::kNoShapeMatch);
    EXPECT_EQ(plan.objects[1].shapeMatchGroup, 0u);
}

}  // namespace
}  // namespace vksim
