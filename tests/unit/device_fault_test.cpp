// The fault-injection switch (vk/device_fault.h) and the words of device
// faults (vk/vk_check.h), without a device: VKSIM_FAULT is parsed whole, and
// only the Nth call at the armed site fails.
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "vk/device_fault.h"
#include "vk/gpu_wait.h"
#include "vk/vk_check.h"

namespace vksim {
namespace {

TEST(DeviceFault, SpecIsParsedWhole) {
    const auto plan = parseFaultSpec("device-lost@submit:12");
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->site, FaultSite::Submit);
    EXPECT_EQ(plan->result, VK_ERROR_DEVICE_LOST);
    EXPECT_EQ(plan->nth, 12u);
    EXPECT_EQ(parseFaultSpec("oom@alloc:1")->result, VK_ERROR_OUT_OF_DEVICE_MEMORY);
    EXPECT_EQ(parseFaultSpec("host-oom@map:3")->site, FaultSite::Map);
    EXPECT_EQ(parseFaultSpec("device-lost@wait:2")->site, FaultSite::Wait);
    EXPECT_EQ(parseFaultSpec("timeout@wait:2")->result, VK_TIMEOUT);
    for (const char* bad : {"", "oom", "oom@alloc", "oom@alloc:", "oom@alloc:0", "oom@alloc:-1", "oom@alloc:1x",
                            "oom@alloc: 1", "lost@submit:1", "oom@free:1", "oom@alloc:99999999999999999999",
                            "oom:1@alloc"})
        EXPECT_FALSE(parseFaultSpec(bad)) << bad;
}

TEST(DeviceFault, OnlyTheNthCallAtTheArmedSiteFails) {
    armFault({FaultSite::Wait, VK_ERROR_DEVICE_LOST, 3});
    EXPECT_EQ(injectedFault(FaultSite::Submit), VK_SUCCESS);  // other sites are not counted
    EXPECT_EQ(injectedFault(FaultSite::Wait), VK_SUCCESS);
    EXPECT_EQ(injectedFault(FaultSite::Wait), VK_SUCCESS);
    EXPECT_EQ(injectedFault(FaultSite::Submit), VK_SUCCESS);
    EXPECT_EQ(injectedFault(FaultSite::Wait), VK_ERROR_DEVICE_LOST);
    EXPECT_EQ(injectedFault(FaultSite::Wait), VK_SUCCESS);
    disarmFault();
    armFault({FaultSite::Alloc, VK_ERROR_OUT_OF_DEVICE_MEMORY, 1});
    EXPECT_EQ(injectedFault(FaultSite::Alloc), VK_ERROR_OUT_OF_DEVICE_MEMORY);  // the count restarts
    disarmFault();
    EXPECT_EQ(injectedFault(FaultSite::Alloc), VK_SUCCESS);
}

std::string faultMessage(VkResult result, const std::string& doing) {
    try {
        throwDeviceFault(result, doing);
    } catch (const DeviceFault& e) {
        EXPECT_EQ(e.result, result);
        return e.what();
    }
    return {};
}

TEST(DeviceFault, MessagesSayWhatWasBeingDone) {
    EXPECT_EQ(faultMessage(VK_ERROR_DEVICE_LOST, "waiting for frame 12"),
              "the GPU was lost (VK_ERROR_DEVICE_LOST) while waiting for frame 12");
    EXPECT_EQ(faultMessage(VK_ERROR_OUT_OF_DEVICE_MEMORY, "allocating \"pd iterate\" (64.0 MiB)"),
              "out of device memory (VK_ERROR_OUT_OF_DEVICE_MEMORY) while allocating \"pd iterate\" (64.0 MiB)");
    EXPECT_EQ(faultMessage(VK_ERROR_OUT_OF_HOST_MEMORY, "submitting frame 3"),
              "out of host memory (VK_ERROR_OUT_OF_HOST_MEMORY) while submitting frame 3");
    EXPECT_EQ(faultMessage(VK_TIMEOUT, "waiting for frame 4"),
              fmt::format("the GPU did not finish within {:g} s (VK_TIMEOUT) while waiting for frame 4; "
                          "VKSIM_GPU_TIMEOUT=SECONDS sets the limit",
                          gpuTimeoutSeconds()));
}

VkResult lostDeviceCall(int) { return VK_ERROR_DEVICE_LOST; }

TEST(DeviceFault, VkCheckNamesTheFunctionNotTheSourceLine) {
    try {
        VK_CHECK(lostDeviceCall(1));
        FAIL() << "no throw";
    } catch (const DeviceFault& e) {
        EXPECT_STREQ(e.what(), "the GPU was lost (VK_ERROR_DEVICE_LOST) while calling lostDeviceCall");
    }
}

TEST(DeviceFault, SizesAreReadable) {
    EXPECT_EQ(formatBytes(512), "512 bytes");
    EXPECT_EQ(formatBytes(1536), "1.5 KiB");
    EXPECT_EQ(formatBytes(64ull << 20), "64.0 MiB");
    EXPECT_EQ(formatBytes(9ull << 30), "9.0 GiB");
}

}  // namespace
}  // namespace vksim
