#include "app/state_read_back.h"

#include <stdexcept>

#include <fmt/format.h>

#include "vk/barriers.h"

namespace vksim {

StateReadBack::StateReadBack(const VulkanContext& ctx, std::string_view what, const GpuBuffer& first,
                             const GpuBuffer& second, uint32_t particleCount, uint32_t frameSlots)
    : what_(what), first_(first), second_(second), particleCount_(particleCount) {
    const VkDeviceSize stateBytes = VkDeviceSize{particleCount_} * sizeof(glm::vec4);
    for (uint32_t i = 0; i < frameSlots; ++i)
        slots_.push_back({GpuBuffer(ctx, 2 * stateBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind::HostVisible,
                                    fmt::format("{} read-back, frame slot {}", what, i)),
                          std::nullopt});
}

void StateReadBack::record(VkCommandBuffer cmd, uint32_t slotIndex, uint64_t frame) {
    Slot& slot = slots_.at(slotIndex);
    if (slot.frame)
        throw std::logic_error(
            fmt::format("{}: frame slot {} recorded again before it was collected", what_, slotIndex));
    slot.frame = frame;
    const VkDeviceSize stateBytes = VkDeviceSize{particleCount_} * sizeof(glm::vec4);
    computeToTransferBarrier(cmd);  // the frame's last writes of both buffers
    const VkBufferCopy firstRegion{0, 0, stateBytes};
    const VkBufferCopy secondRegion{0, stateBytes, stateBytes};
    vkCmdCopyBuffer(cmd, first_.handle(), slot.readBack.handle(), 1, &firstRegion);
    vkCmdCopyBuffer(cmd, second_.handle(), slot.readBack.handle(), 1, &secondRegion);
    transferToHostBarrier(cmd);         // read by take() after the slot's fence
    transferReadToComputeBarrier(cmd);  // the next frame overwrites what was copied
}

std::optional<StateReadBack::State> StateReadBack::take(uint32_t slotIndex, uint64_t frame) {
    Slot& slot = slots_.at(slotIndex);
    if (!slot.frame) return std::nullopt;  // this frame was not read back
    if (*slot.frame != frame)
        throw std::logic_error(fmt::format("{}: slot {} holds frame {}, not {}", what_, slotIndex, *slot.frame, frame));
    slot.frame.reset();
    const auto* state = static_cast<const glm::vec4*>(slot.readBack.mapped());
    return State{frame, {state, particleCount_}, {state + particleCount_, particleCount_}};
}

}  // namespace vksim
