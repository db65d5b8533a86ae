#include "world/frame_commands.h"

#include "vk/command_buffers.h"
#include "vk/vk_check.h"

namespace vksim {

FrameCommands::FrameCommands(const VulkanContext& ctx, uint32_t slots) : ctx_(ctx), slots_(slots) {
    const std::vector<VkCommandBuffer> buffers =
        allocateCommandBuffers(ctx, VK_COMMAND_BUFFER_LEVEL_SECONDARY, slots, "simulation frame, slot");
    for (uint32_t i = 0; i < slots; ++i) slots_[i].commands = buffers[i];
}

FrameCommands::~FrameCommands() {
    // World::~World waited for its frames (or the GPU was abandoned, and
    // freeCommandBuffers leaks them).
    for (const Slot& slot : slots_) freeCommandBuffers(ctx_, {&slot.commands, 1});
}

bool FrameCommands::replayable(uint32_t slot, const FrameKey& key) const {
    const std::optional<FrameKey>& recorded = slots_.at(slot).replayableFor;
    return recorded && *recorded == key;
}

VkCommandBuffer FrameCommands::begin(uint32_t slot) {
    Slot& s = slots_.at(slot);
    s.replayableFor.reset();
    VK_CHECK(vkResetCommandBuffer(s.commands, 0));
    // Compute only: no render pass, no inherited query.
    VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.pInheritanceInfo = &inheritance;  // not ONE_TIME_SUBMIT: it is replayed
    VK_CHECK(vkBeginCommandBuffer(s.commands, &begin));
    return s.commands;
}

void FrameCommands::end(uint32_t slot, const FrameKey& key, bool oneTimeWork) {
    Slot& s = slots_.at(slot);
    VK_CHECK(vkEndCommandBuffer(s.commands));
    if (!oneTimeWork) s.replayableFor = key;
}

void FrameCommands::forget() {
    for (Slot& slot : slots_) slot.replayableFor.reset();
}

}  // namespace vksim
