#include "run/frame_loop.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "run/stop_signal.h"
#include "vk/command_buffers.h"
#include "vk/context.h"
#include "vk/gpu_wait.h"
#include "vk/slow_frame.h"
#include "vk/vk_check.h"
#include "world/world.h"

namespace vksim {
namespace {

constexpr uint32_t kSlots = kHeadlessFramesInFlight;

// Command buffers and fences of the frames in flight, and which frame each
// slot holds until it is collected.
struct FrameSlots {
    const VulkanContext& ctx;
    std::array<VkCommandBuffer, kSlots> commands{};
    std::array<VkFence, kSlots> fences{};
    std::array<std::optional<uint64_t>, kSlots> frames{};

    explicit FrameSlots(const VulkanContext& context) : ctx(context) {
        const std::vector<VkCommandBuffer> allocated =
            allocateCommandBuffers(ctx, VK_COMMAND_BUFFER_LEVEL_PRIMARY, kSlots, "headless frame");
        std::copy(allocated.begin(), allocated.end(), commands.begin());
        for (uint32_t i = 0; i < kSlots; ++i) {
            VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
            info.flags = VK_FENCE_CREATE_SIGNALED_BIT;
            VK_CHECK(vkCreateFence(ctx.device(), &info, nullptr, &fences[i]));
            ctx.setName(fences[i], VK_OBJECT_TYPE_FENCE, fmt::format("headless frame fence {}", i));
        }
    }
    ~FrameSlots() {
        ctx.waitIdleForTeardown();
        if (gpuAbandoned()) return;  // the GPU may still run the frames: leaked (gpu_wait.h)
        for (VkFence fence : fences) vkDestroyFence(ctx.device(), fence, nullptr);
        freeCommandBuffers(ctx, commands);
    }
    FrameSlots(const FrameSlots&) = delete;
    FrameSlots& operator=(const FrameSlots&) = delete;
};

// What the fence of a slot guards, for a message when waiting on it fails.
std::string waitingFor(const FrameSlots& slots, uint32_t slot) {
    return slots.frames[slot] ? fmt::format("waiting for frame {}", *slots.frames[slot]) : "waiting for a frame";
}

// The slot's fence has signalled: hand its frame to the simulation, then to
// the observers.
void collect(World& sim, FrameSlots& slots, uint32_t slot, std::span<FrameObserver* const> observers) {
    sim.collectTimings(slot);
    sim.throwIfNonFinite(slot);
    if (!slots.frames[slot]) return;
    const uint64_t frame = *slots.frames[slot];
    slots.frames[slot].reset();
    for (FrameObserver* observer : observers) observer->frameCollected(slot, frame);
}

// The frame loop of simulateFrames; a frame that outlives the GPU time
// limit says which keys give a frame less work.
uint64_t runFrames(const VulkanContext& ctx, World& sim, uint64_t frames, std::span<FrameObserver* const> observers) {
    // Declared first, destroyed last: a slow frame's event is still set
    // while the slots' teardown waits for it.
    SlowFrameHook slowFrame(ctx);
    FrameSlots slots(ctx);
    uint64_t i = 0;
    // A signal (stop_signal.h) ends the loop at a frame boundary; the frames
    // in flight are still collected below, so the observers see every frame
    // that was submitted.
    for (; i < frames && !stopRequested(); ++i) {
        const auto slot = static_cast<uint32_t>(i % kSlots);
        // The slot's previous frame has finished: its results are ready.
        waitForFences(ctx, std::span(&slots.fences[slot], 1), waitingFor(slots, slot));
        collect(sim, slots, slot, observers);
        VK_CHECK(vkResetFences(ctx.device(), 1, &slots.fences[slot]));

        VkCommandBuffer cmd = slots.commands[slot];
        VK_CHECK(vkResetCommandBuffer(cmd, 0));
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
        const uint64_t frame = sim.framesRecorded();
        slowFrame.record(cmd, frame);
        sim.recordFrame(cmd, slot);
        for (FrameObserver* observer : observers) observer->frameRecorded(cmd, slot, frame);
        VK_CHECK(vkEndCommandBuffer(cmd));
        slots.frames[slot] = frame;

        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cmd;
        VK_CHECK_FAULT(FaultSite::Submit, vkQueueSubmit(ctx.queue(), 1, &submit, slots.fences[slot]),
                       fmt::format("submitting frame {}", frame));
        slowFrame.submitted(frame);
    }
    waitForFences(ctx, slots.fences, "waiting for the last frames");
    for (uint64_t k = 0; k < kSlots; ++k)
        collect(sim, slots, static_cast<uint32_t>((i + k) % kSlots), observers);  // oldest frame first
    return i;
}

}  // namespace

uint64_t simulateFrames(const VulkanContext& ctx, World& sim, uint64_t frames,
                        std::span<FrameObserver* const> observers) {
    try {
        return runFrames(ctx, sim, frames, observers);
    } catch (const DeviceFault& e) {
        if (e.result != VK_TIMEOUT) throw;
        throw DeviceFault(e.result, fmt::format("{}; a frame that is only slow needs less work: lower {}", e.what(),
                                                sim.fewerWorkKeys()));
    }
}

}  // namespace vksim
