// The estimate of whether a scene fits a device (solvers/device_footprint.h),
// against made-up limits: each limit is named with the key to lower, and
// scenes within them pass.
#include <iostream>

#include <gtest/gtest.h>

#include "scene/scene_loader.h"
#include "solvers/device_footprint.h"
#include "solvers/model_builder.h"

namespace vksim {
namespace {

// 2 GiB of memory, 1 GiB usable.
constexpr DeviceLimits kDevice{
    .usableMemoryBytes = 1ull << 30, .heapBytes = 2ull << 30, .maxStorageBufferRange = 1ull << 30};

std::optional<FootprintProblem> check(const std::string& json, const DeviceLimits& limits = kDevice) {
    return checkDeviceFootprint(parseScene(json, "s.json"), limits);
}

TEST(DeviceFootprint, ScenesWithinTheLimitsPass) {
    EXPECT_FALSE(check(R"({"objects": [{"type": "cloth", "resolution": [1024, 1024]}]})"));
    EXPECT_FALSE(check(R"({"objects": [{"type": "tetBox", "cells": [32, 32, 32]}]})"));
}

TEST(DeviceFootprint, DeviceMemoryIsNamedFirst) {
    const auto problem = check(R"({"objects": [{"type": "cloth", "resolution": [64, 64]},
                                               {"type": "cloth", "resolution": [4096, 4096]}]})");
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->key, "/objects/1/resolution");
    EXPECT_EQ(problem->problem, "4096x4096 needs 6.3 GiB of device memory with the other objects; the device has "
                                "2.0 GiB (vksim uses at most 1.0 GiB)");
}

TEST(DeviceFootprint, TheLargestBufferIsCheckedAgainstMaxStorageBufferRange) {
    DeviceLimits small = kDevice;
    small.maxStorageBufferRange = 128u << 20;
    const auto problem = check(R"({"objects": [{"type": "cloth", "method": "pd", "resolution": [600, 600]}]})", small);
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->key, "/objects/0/resolution");
    EXPECT_EQ(problem->problem, "600x600 needs a 143 MiB buffer; the device's maxStorageBufferRange is 128 MiB");
    // Just past the limit, both round to 128 MiB: then the bytes.
    const auto justPast = check(R"({"objects": [{"type": "cloth", "resolution": [966, 966]}]})", small);
    ASSERT_TRUE(justPast);
    std::cout << "[footprint] " << justPast->problem << "\n";
    EXPECT_NE(justPast->problem.find("-byte buffer; the device's maxStorageBufferRange is 134217728 bytes"),
              std::string::npos)
        << justPast->problem;
}

// A mass-spring object with contacts adds Newton's coupling block for each
// entry of the whole contact list (32 B x 32 per contact particle), so a
// large PBD cloth that fits alone is refused beside a small mass-spring
// cloth, both with contacts, naming the larger's "contacts".
TEST(DeviceFootprint, NewtonsContactCouplingsCountAgainstTheLargestBuffer) {
    DeviceLimits small = kDevice;
    small.maxStorageBufferRange = 128u << 20;
    const std::string large = R"({"type": "cloth", "resolution": [600, 600], "contacts": {}})";
    EXPECT_FALSE(check(R"({"objects": [)" + large + R"(]})", small));
    EXPECT_FALSE(check(R"({"objects": [)" + large +
                           R"(, {"type": "cloth", "method": "springs", "resolution": [8, 8]}]})",
                       small));
    const std::string springs = R"({"type": "cloth", "method": "springs", "resolution": [8, 8], "contacts": {}})";
    const auto problem = check(R"({"objects": [)" + large + ", " + springs + "]}", small);
    ASSERT_TRUE(problem);
    std::cout << "[footprint] " << problem->problem << "\n";
    EXPECT_EQ(problem->key, "/objects/0/contacts");
    EXPECT_EQ(problem->problem, "360064 particles with contacts need a 352 MiB contact list; the device's "
                                "maxStorageBufferRange is 128 MiB (take the block off the largest objects, or make "
                                "them coarser)");
}

// Vertex-triangle and edge-edge contacts add their constraint list
// (48 B x 48 per contact particle), so a large PBD cloth with contacts that fits is refused with
// "triangles", naming its "contacts".
TEST(DeviceFootprint, TriangleContactsCountAgainstTheLargestBuffer) {
    DeviceLimits small = kDevice;
    small.maxStorageBufferRange = 128u << 20;
    small.usableMemoryBytes = small.heapBytes = 1ull << 40;  // the buffer, not the memory
    EXPECT_FALSE(check(R"({"objects": [{"type": "cloth", "resolution": [600, 600], "contacts": {}}]})", small));
    const auto problem =
        check(R"({"objects": [{"type": "cloth", "resolution": [600, 600], "contacts": {"triangles": true}}]})", small);
    ASSERT_TRUE(problem);
    std::cout << "[footprint] " << problem->problem << "\n";
    EXPECT_EQ(problem->key, "/objects/0/contacts");
    EXPECT_NE(problem->problem.find("360000 particles with contacts need a 791 MiB contact list"), std::string::npos)
        << problem->problem;
}

TEST(DeviceFootprint, TheWorkgroupCountIsNoLimit) {
    // A 4096x4096 cloth's finite check needs 524,288 workgroups, past the
    // 65,535 Vulkan promises: ComputeKernel splits the dispatch, so only
    // memory and buffer sizes decide.
    DeviceLimits big = kDevice;
    big.usableMemoryBytes = big.heapBytes = 1ull << 40;
    big.maxStorageBufferRange = 1ull << 32;
    EXPECT_FALSE(check(R"({"objects": [{"type": "cloth", "resolution": [4096, 4096]}]})", big));
}

// The largest-buffer estimates are upper bounds of what the model builder
// makes: PBD's bending constraints (48 B) and PD's contribution slots (16 B).
TEST(DeviceFootprint, TheLargestBufferEstimatesBoundTheModels) {
    const SimModel pbd = buildModel(parseScene(R"({"objects": [{"type": "cloth", "resolution": [64, 64]}]})", "s.json"));
    const double particles = 64.0 * 64.0;
    EXPECT_LE(pbd.pbd.bending.size() * 48 / particles, 144.0);
    EXPECT_LE(pbd.pbd.distance.size() * 16 / particles, 144.0);
    const SimModel pd = buildModel(parseScene(
        R"({"objects": [{"type": "cloth", "method": "pd", "resolution": [64, 64], "strain": {"stiffness": 100}}]})",
        "s.json"));
    EXPECT_LE(pd.pd.slots.total * 16.0 / particles, 416.0);
}

}  // namespace
}  // namespace vksim
