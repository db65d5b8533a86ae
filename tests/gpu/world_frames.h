#pragma once
// Steps a World `count` frames in frame slot 0, one submission each (waits
// after each) and collects the slot's timings, as a frame loop would: what
// the GPU tests that drive a World share.
#include <cstdint>
#include <string_view>

#include <volk.h>

#include "vk/context.h"
#include "world/world.h"

namespace vksim::test {

// How many times the last collected frame ran the pass named `name`.
inline uint32_t passRunsInLastFrame(World& world, std::string_view name) {
    uint32_t runs = 0;
    for (const PassRunInterval& run : world.timer().lastCollectedFrame().runs)
        runs += world.timer().passName(run.passId) == name ? 1 : 0;
    return runs;
}

inline void runWorldFrames(const VulkanContext& ctx, World& world, uint32_t count) {
    for (uint32_t f = 0; f < count; ++f) {
        ctx.submitAndWait([&](VkCommandBuffer cmd) { world.recordFrame(cmd, 0); });
        world.collectTimings(0);
    }
}

}  // namespace vksim::test
