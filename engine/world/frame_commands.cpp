#include "world/frame_commands.h"

#include <fmt/format.h>

#include "vk/context.h"
#include "vk/vk_check.h"

namespace vksim {

FrameCommands::FrameCommands(const VulkanContext& ctx, uint32_t slots) : ctx_(ctx), slots_(slots) {
    std::vector<VkCommandBuffer> buffers(slots);
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = ctx.commandPool();
    alloc.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
    alloc.commandBufferCount = slots;
    VK_CHECK(vkAllocateCommandBuffers(ctx.device(), &alloc, buffers.data()));
    for (uint32_t i = 0; i < slots; ++i) {
        slots_[i].commands = buffers[i];
        ctx.setName(buffers[i], VK_OBJECT_TYPE_COMMAND_BUFFER, fmt::format("simulation frame, slot {}", i));
    }
}

FrameCommands::~FrameCommands() {
    // The World's owner waited for its frames before destroying it.
    for (const Slot& slot : slots_) vkFreeCommandBuffers(ctx_.device(), ctx_.commandPool(), 1, &slot.commands);
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
