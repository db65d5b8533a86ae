// The choice of a dispatch path for PD's Jacobi iterations
// (solvers/pd/pd_jacobi_path_choice.h) and the rigid bodies
// (solvers/rigid/rigid_path_choice.h): "auto" at its thresholds, and the
// settings that override a request.
#include <gtest/gtest.h>

#include "solvers/pd/pd_jacobi_in_workgroup.h"
#include "solvers/pd/pd_jacobi_path_choice.h"
#include "solvers/rigid/rigid_path_choice.h"

namespace vksim {
namespace {

PdSettings pdOn(PdJacobiPath path, uint32_t jacobiIterations = 20) {
    PdSettings settings;
    settings.jacobiPath = path;
    settings.jacobiIterations = jacobiIterations;
    return settings;
}

TEST(PdJacobiPathChoice, AutoTakesOneWorkgroupUpToItsRows) {
    EXPECT_EQ(choosePdJacobiPath(pdOn(PdJacobiPath::Auto), 1), PdJacobiPath::Workgroup);
    EXPECT_EQ(choosePdJacobiPath(pdOn(PdJacobiPath::Auto), kPdOneWorkgroupRows), PdJacobiPath::Workgroup);
    EXPECT_EQ(choosePdJacobiPath(pdOn(PdJacobiPath::Auto), kPdOneWorkgroupRows + 1), PdJacobiPath::PerIteration);
}

TEST(PdJacobiPathChoice, ARequestedPathIsTaken) {
    for (PdJacobiPath path : {PdJacobiPath::Workgroup, PdJacobiPath::PerIteration, PdJacobiPath::Tiled})
        for (uint32_t rows : {1u, kPdOneWorkgroupRows + 1})
            EXPECT_EQ(choosePdJacobiPath(pdOn(path), rows), path) << rows;
}

TEST(PdJacobiPathChoice, MoreIterationsThanTheWorkgroupHoldsTakeADispatchEach) {
    const uint32_t many = PdJacobiInWorkgroup::kMaxOmegas + 1;
    for (PdJacobiPath path : {PdJacobiPath::Auto, PdJacobiPath::Workgroup, PdJacobiPath::Tiled})
        EXPECT_EQ(choosePdJacobiPath(pdOn(path, many), 1), PdJacobiPath::PerIteration);
    EXPECT_EQ(choosePdJacobiPath(pdOn(PdJacobiPath::Workgroup, many - 1), 1), PdJacobiPath::Workgroup);
}

TEST(RigidPathChoice, AutoTakesOneWorkgroupUpToItsBodiesPerDevice) {
    EXPECT_EQ(chooseRigidPath(RigidPath::Auto, kRigidOneWorkgroupBodiesCpu, true), RigidPath::OneWorkgroup);
    EXPECT_EQ(chooseRigidPath(RigidPath::Auto, kRigidOneWorkgroupBodiesCpu + 1, true), RigidPath::PerSubstep);
    EXPECT_EQ(chooseRigidPath(RigidPath::Auto, kRigidOneWorkgroupBodiesGpu, false), RigidPath::OneWorkgroup);
    EXPECT_EQ(chooseRigidPath(RigidPath::Auto, kRigidOneWorkgroupBodiesGpu + 1, false), RigidPath::PerSubstep);
}

TEST(RigidPathChoice, ARequestedPathIsTakenButOneBodyTakesOneWorkgroup) {
    for (bool cpu : {true, false}) {
        EXPECT_EQ(chooseRigidPath(RigidPath::OneWorkgroup, 100, cpu), RigidPath::OneWorkgroup);
        EXPECT_EQ(chooseRigidPath(RigidPath::PerSubstep, 2, cpu), RigidPath::PerSubstep);
        EXPECT_EQ(chooseRigidPath(RigidPath::PerSubstep, 1, cpu), RigidPath::OneWorkgroup);
    }
}

}  // namespace
}  // namespace vksim
