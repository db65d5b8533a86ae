// VulkanContext(const AdoptedDevice&): a context on a device vksim did not
// create. Adopts the test process's shared (validated) context's handles, so
// the layer's messages about the adopted context's work still fail the test.
#include <gtest/gtest.h>

#include "gpu_harness.h"
#include "world/world.h"
#include "world_frames.h"

namespace vksim::test {
namespace {

class AdoptedContextTest : public GpuTest {
protected:
    AdoptedDevice adoptShared() {
        AdoptedDevice adopted;
        adopted.instance = ctx().instance();
        adopted.physicalDevice = ctx().physicalDevice();
        adopted.device = ctx().device();
        adopted.queueFamily = ctx().queueFamily();
        adopted.queue = ctx().queue();
        adopted.debugUtilsEnabled = true;  // the shared context runs with the validation layer
        return adopted;
    }
};

std::vector<glm::vec4> stepWorld(const VulkanContext& ctx, const Scene& scene, uint32_t frames) {
    World world(ctx, scene, 1);
    runWorldFrames(ctx, world, frames);
    return world.particles().readPositions();
}

TEST_F(AdoptedContextTest, ReadsTheDeviceAndOwnsNothingButItsPool) {
    const VulkanContext adopted(adoptShared());
    EXPECT_FALSE(adopted.ownsDevice());
    EXPECT_TRUE(ctx().ownsDevice());
    EXPECT_EQ(adopted.device(), ctx().device());
    EXPECT_EQ(adopted.queue(), ctx().queue());
    EXPECT_NE(adopted.commandPool(), ctx().commandPool());
    EXPECT_EQ(adopted.properties().deviceID, ctx().properties().deviceID);
    EXPECT_EQ(adopted.deviceInfo().name, ctx().deviceInfo().name);
    EXPECT_EQ(adopted.deviceInfo().index, ctx().deviceInfo().index);
    EXPECT_EQ(adopted.findMemoryType(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT),
              ctx().findMemoryType(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT));
    EXPECT_FALSE(adopted.validationEnabled());  // the application's messenger sees the messages
    EXPECT_FALSE(adopted.pushDescriptors());     // not said to be enabled
}

TEST_F(AdoptedContextTest, PushDescriptorsOnlyWhenTheApplicationSaysSo) {
    AdoptedDevice device = adoptShared();
    device.pushDescriptorsEnabled = ctx().pushDescriptors();
    const VulkanContext adopted(device);
    EXPECT_EQ(adopted.pushDescriptors(), ctx().pushDescriptors());
}

TEST_F(AdoptedContextTest, RunsAWorldLikeAnOwnedContextAndLeavesTheDeviceAlive) {
    const Scene scene = clothScene({8, 8}, {1.0f, 1.0f}, 1.0f);
    const std::vector<glm::vec4> owned = stepWorld(ctx(), scene, 3);
    {
        const VulkanContext adopted(adoptShared());
        EXPECT_EQ(stepWorld(adopted, scene, 3), owned);
    }
    // The adopted context is gone; the device and queue it borrowed still work.
    EXPECT_EQ(stepWorld(ctx(), scene, 3), owned);
}

TEST_F(AdoptedContextTest, RejectsMissingHandles) {
    AdoptedDevice device = adoptShared();
    device.queue = VK_NULL_HANDLE;
    EXPECT_THROW(VulkanContext{device}, DeviceError);
    device = adoptShared();
    device.queueFamily = 1000;
    EXPECT_THROW(VulkanContext{device}, DeviceError);
}

}  // namespace
}  // namespace vksim::test
