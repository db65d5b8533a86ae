// How "auto" picks PBD's dispatch path (solvers/pbd/pbd_path_choice.h), on
// the facts alone: a path asked for is kept; the clusters where they cut an
// object or no workgroup fits or there are contacts, and they fit, on a CPU
// device always, on a GPU from kGpuClustersOverOneWorkgroup clusters or past
// one workgroup or with contacts; else one workgroup where every object fits
// and there are no contacts; else the colours.
#include <gtest/gtest.h>

#include "solvers/pbd/pbd_path_choice.h"

namespace vksim {
namespace {

PbdPathFacts gpuFacts(uint32_t largestObjectClusters) {
    return {.cpuDevice = false,
            .workgroupFits = true,
            .clustersFit = true,
            .clustersSplitAnObject = largestObjectClusters > 1,
            .largestObjectClusters = largestObjectClusters};
}

TEST(PbdPathChoice, KeepsAPathAskedFor) {
    for (PbdPath path : {PbdPath::PerColour, PbdPath::Workgroup, PbdPath::Clusters})
        EXPECT_EQ(choosePbdPath(path, gpuFacts(kGpuClustersOverOneWorkgroup)), path);
}

TEST(PbdPathChoice, GpuTakesTheClustersFromTheThresholdOrPastOneWorkgroup) {
    EXPECT_EQ(choosePbdPath(PbdPath::Auto, gpuFacts(1)), PbdPath::Workgroup);
    EXPECT_EQ(choosePbdPath(PbdPath::Auto, gpuFacts(kGpuClustersOverOneWorkgroup - 1)), PbdPath::Workgroup);
    EXPECT_EQ(choosePbdPath(PbdPath::Auto, gpuFacts(kGpuClustersOverOneWorkgroup)), PbdPath::Clusters);
    PbdPathFacts past = gpuFacts(2);
    past.workgroupFits = false;
    EXPECT_EQ(choosePbdPath(PbdPath::Auto, past), PbdPath::Clusters);
}

TEST(PbdPathChoice, CpuTakesTheClustersWhereTheyCutAnObject) {
    PbdPathFacts cpu = gpuFacts(2);
    cpu.cpuDevice = true;
    EXPECT_EQ(choosePbdPath(PbdPath::Auto, cpu), PbdPath::Clusters);
    cpu.clustersSplitAnObject = false;
    EXPECT_EQ(choosePbdPath(PbdPath::Auto, cpu), PbdPath::Workgroup);
}

TEST(PbdPathChoice, FallsBackOnTheColours) {
    PbdPathFacts facts = gpuFacts(kGpuClustersOverOneWorkgroup);
    facts.clustersFit = false;
    EXPECT_EQ(choosePbdPath(PbdPath::Auto, facts), PbdPath::Workgroup);
    facts.workgroupFits = false;
    EXPECT_EQ(choosePbdPath(PbdPath::Auto, facts), PbdPath::PerColour);
    facts = gpuFacts(1);
    facts.workgroupFits = false;
    facts.clustersFit = false;
    EXPECT_EQ(choosePbdPath(PbdPath::Auto, facts), PbdPath::PerColour);
}

// A world with bodies fits no workgroup path, and objects with contacts,
// which the workgroup path projects between objects only after its solve,
// are better held apart by a path that projects them in every iteration:
// the clusters take such objects whole rather than the colours, or the
// colours where the clusters do not fit; "workgroup" asked for is kept.
TEST(PbdPathChoice, ClustersHoldWholeObjectsWhereNoWorkgroupFitsOrThereAreContacts) {
    for (bool cpu : {false, true})
        for (bool contacts : {false, true}) {
            PbdPathFacts facts = gpuFacts(1);
            facts.cpuDevice = cpu;
            facts.workgroupFits = contacts;
            facts.contacts = contacts;
            EXPECT_EQ(choosePbdPath(PbdPath::Auto, facts), PbdPath::Clusters);
            EXPECT_EQ(choosePbdPath(PbdPath::Workgroup, facts), PbdPath::Workgroup);
            facts.clustersFit = false;
            EXPECT_EQ(choosePbdPath(PbdPath::Auto, facts), PbdPath::PerColour);
        }
}

}  // namespace
}  // namespace vksim
