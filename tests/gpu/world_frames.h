#pragma once
// Steps a World `count` frames in frame slot 0, one submission each (waits
// after each) and collects the slot's timings, as a frame loop would: what
// the GPU tests that drive a World share.
#include <cstdint>

#include <volk.h>

#include "vk/context.h"
#include "world/world.h"

namespace vksim::test {

inline void runWorldFrames(const VulkanContext& ctx, World& world, uint32_t count) {
    for (uint32_t f = 0; f < count; ++f) {
        ctx.submitAndWait([&](VkCommandBuffer cmd) { world.recordFrame(cmd, 0); });
        world.collectTimings(0);
    }
}

}  // namespace vksim::test
