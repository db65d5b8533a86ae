#include "app/headless_app.h"

#include <array>
#include <iostream>

#include <fmt/format.h>

#include "app/simulation.h"
#include "app/timing_output.h"
#include "sim/model_summary.h"
#include "sim/state_hash.h"
#include "vk/context.h"
#include "vk/vk_check.h"

namespace vksim {
namespace {

constexpr uint32_t kFramesInFlight = 2;
constexpr uint32_t kDefaultHeadlessFrames = 300;

// Command buffers and fences of the frames in flight.
struct FrameSlots {
    const VulkanContext& ctx;
    std::array<VkCommandBuffer, kFramesInFlight> commands{};
    std::array<VkFence, kFramesInFlight> fences{};

    explicit FrameSlots(const VulkanContext& context) : ctx(context) {
        VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        alloc.commandPool = ctx.commandPool();
        alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        alloc.commandBufferCount = kFramesInFlight;
        VK_CHECK(vkAllocateCommandBuffers(ctx.device(), &alloc, commands.data()));
        for (uint32_t i = 0; i < kFramesInFlight; ++i) {
            VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
            info.flags = VK_FENCE_CREATE_SIGNALED_BIT;
            VK_CHECK(vkCreateFence(ctx.device(), &info, nullptr, &fences[i]));
            ctx.setName(fences[i], VK_OBJECT_TYPE_FENCE, fmt::format("headless frame fence {}", i));
            ctx.setName(commands[i], VK_OBJECT_TYPE_COMMAND_BUFFER, fmt::format("headless frame {}", i));
        }
    }
    ~FrameSlots() {
        vkDeviceWaitIdle(ctx.device());
        for (VkFence fence : fences) vkDestroyFence(ctx.device(), fence, nullptr);
        vkFreeCommandBuffers(ctx.device(), ctx.commandPool(), kFramesInFlight, commands.data());
    }
};

// Simulates `frames` frames, two in flight. Each slot's timings and finite
// check are read once its fence has signalled; a frame that went non-finite
// throws NonFiniteError (Simulation::throwIfNonFinite).
void simulateFrames(const VulkanContext& ctx, Simulation& sim, uint32_t frames) {
    FrameSlots slots(ctx);
    for (uint32_t frame = 0; frame < frames; ++frame) {
        const uint32_t slot = frame % kFramesInFlight;
        // The slot's previous frame has finished: its timestamps and check are ready.
        VK_CHECK(vkWaitForFences(ctx.device(), 1, &slots.fences[slot], VK_TRUE, UINT64_MAX));
        sim.collectTimings(slot);
        sim.throwIfNonFinite(slot);
        VK_CHECK(vkResetFences(ctx.device(), 1, &slots.fences[slot]));

        VkCommandBuffer cmd = slots.commands[slot];
        VK_CHECK(vkResetCommandBuffer(cmd, 0));
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
        sim.recordFrame(cmd, slot);
        VK_CHECK(vkEndCommandBuffer(cmd));

        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cmd;
        VK_CHECK(vkQueueSubmit(ctx.queue(), 1, &submit, slots.fences[slot]));
    }
    VK_CHECK(vkWaitForFences(ctx.device(), kFramesInFlight, slots.fences.data(), VK_TRUE, UINT64_MAX));
    for (uint32_t i = 0; i < kFramesInFlight; ++i) {
        const uint32_t slot = (frames + i) % kFramesInFlight;  // oldest frame first
        sim.collectTimings(slot);
        sim.throwIfNonFinite(slot);
    }
}

}  // namespace

int runHeadless(const RunOptions& options, const Scene& scene) {
    ContextOptions contextOptions;
    contextOptions.validation = options.validate;
    contextOptions.deviceSelector = options.device;
    VulkanContext ctx(contextOptions);
    Simulation sim(ctx, scene, kFramesInFlight);
    if (!options.quiet) {
        std::cout << fmt::format("device: {} ({}, Vulkan {}, {})\n", ctx.deviceInfo().name, ctx.deviceInfo().type,
                                 ctx.deviceInfo().apiVersion, ctx.deviceInfo().driver);
        std::cout << describeModel(sim.model());
    }

    try {
        simulateFrames(ctx, sim, options.frames.value_or(kDefaultHeadlessFrames));
    } catch (const NonFiniteError& e) {
        std::cerr << "vksim: " << e.what() << "\n";
        return kExitFailure;
    }

    const TimingReport report = sim.timer().report();
    if (!options.quiet) std::cout << formatTimingTable(report);
    if (!options.timingsFile.empty()) writeTimingsFile(options.timingsFile, report);
    if (options.printHash) {
        const std::vector<glm::vec4> positions = sim.solver().readPositions();
        std::cout << "state-hash: " << formatHash(hashPositions(positions)) << "\n";
    }
    const uint32_t messages = ctx.validationCounts().total();
    if (messages > 0) {
        std::cerr << fmt::format("vksim: validation reported {} error(s) and {} warning(s)\n",
                                 ctx.validationCounts().errors.load(), ctx.validationCounts().warnings.load());
        return kExitValidationMessages;
    }
    return kExitOk;
}

}  // namespace vksim
