// Injected device faults (vk/device_fault.h) on a real device: each throws a
// DeviceFault saying what was being done, leaves nothing behind (the
// validation layer would report a leaked buffer or a bad destroy), and the
// next call at the same site works again.
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "gpu_harness.h"
#include "run/frame_loop.h"
#include "scene/scene_loader.h"
#include "vk/buffer.h"
#include "vk/device_fault.h"
#include "vk/vk_check.h"
#include "world/world.h"

namespace vksim::test {
namespace {

class DeviceFaults : public GpuTest {
protected:
    void TearDown() override {
        disarmFault();
        GpuTest::TearDown();
    }
};

std::string faultOf(const std::function<void()>& run) {
    try {
        run();
    } catch (const DeviceFault& e) {
        return e.what();
    }
    return "no fault";
}

TEST_F(DeviceFaults, OutOfDeviceMemoryNamesTheBufferAndItsSize) {
    armFault({FaultSite::Alloc, VK_ERROR_OUT_OF_DEVICE_MEMORY, 1});
    EXPECT_EQ(faultOf([&] {
                  GpuBuffer buffer(ctx(), 64ull << 20, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind::DeviceLocal,
                                   "pd iterate");
              }),
              "out of device memory (VK_ERROR_OUT_OF_DEVICE_MEMORY) while allocating \"pd iterate\" (64.0 MiB)");
    GpuBuffer next(ctx(), 1024, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind::DeviceLocal, "next");
    EXPECT_TRUE(next);
}

TEST_F(DeviceFaults, FailedMapReleasesTheBuffer) {
    armFault({FaultSite::Map, VK_ERROR_OUT_OF_HOST_MEMORY, 1});
    EXPECT_EQ(faultOf([&] {
                  GpuBuffer buffer(ctx(), 1536, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind::HostVisible, "read-back");
              }),
              "out of host memory (VK_ERROR_OUT_OF_HOST_MEMORY) while mapping \"read-back\" (1.5 KiB)");
}

Scene smallCloth() { return loadScene(sourcePath("tests/cli/small_cloth.json")); }

// Frames 0 and 1 are submitted before the first wait on a slot that holds a
// frame: the third fence wait of the loop is frame 0's.
TEST_F(DeviceFaults, LostDeviceAtAFenceWaitNamesTheFrame) {
    World sim(ctx(), smallCloth(), kHeadlessFramesInFlight);
    armFault({FaultSite::Wait, VK_ERROR_DEVICE_LOST, 3});
    EXPECT_EQ(faultOf([&] { simulateFrames(ctx(), sim, 10); }),
              "the GPU was lost (VK_ERROR_DEVICE_LOST) while waiting for frame 0");
}

TEST_F(DeviceFaults, LostDeviceAtASubmissionNamesTheFrame) {
    World sim(ctx(), smallCloth(), kHeadlessFramesInFlight);
    armFault({FaultSite::Submit, VK_ERROR_DEVICE_LOST, 2});
    EXPECT_EQ(faultOf([&] { simulateFrames(ctx(), sim, 10); }),
              "the GPU was lost (VK_ERROR_DEVICE_LOST) while submitting frame 1");
    // Only the Nth call fails, and the device was never really lost.
    World fresh(ctx(), smallCloth(), kHeadlessFramesInFlight);
    EXPECT_EQ(simulateFrames(ctx(), fresh, 3), 3u);
}

}  // namespace
}  // namespace vksim::test
