// How "auto" picks PBD's dispatch path (solvers/pbd/pbd_path_choice.h), on
// the facts alone: a path asked for is kept; the clusters where they cut an
// object or no workgroup fits, and they fit, on a CPU device always, on a
// GPU from kGpuClustersOverOneWorkgroup clusters or past one workgroup; else
// one workgroup where every object fits; else the colours.
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

// Objects with contacts, or a world with bodies, fit no workgroup path: the
// clusters take them whole rather than the colours.
TEST(PbdPathChoice, ClustersHoldWholeObjectsWhereNoWorkgroupFits) {
    for (bool cpu : {false, true}) {
        PbdPathFacts facts = gpuFacts(1);
        facts.cpuDevice = cpu;
        facts.workgroupFits = false;
        EXPECT_EQ(choosePbdPath(PbdPath::Auto, facts), PbdPath::Clusters);
    }
}

}  // namespace
}  // namespace vksim
