#include "app/state_read_back.h"

#include <stdexcept>

#include <fmt/format.h>

#include "vk/barriers.h"

namespace vksim {

StateReadBack::StateReadBack(const VulkanContext& ctx, std::string_view what, std::vector<Source> sources,
                             uint32_t frameSlots)
    : what_(what), sources_(std::move(sources)) {
    if (sources_.empty()) throw std::invalid_argument(fmt::format("{} read-back: nothing to read", what));
    VkDeviceSize total = 0;
    for (const Source& source : sources_) {
        if (!source.buffer || source.bytes == 0 || source.bytes > source.buffer->size())
            throw std::invalid_argument(fmt::format("{} read-back: a source of {} bytes from a buffer of {}", what,
                                                    source.bytes, source.buffer ? source.buffer->size() : 0));
        // Every source starts on a 16-byte boundary, so each can be read as
        // vec4s (or wider records of them).
        offsets_.push_back(total);
        total += (source.bytes + 15) / 16 * 16;
    }
    for (uint32_t i = 0; i < frameSlots; ++i)
        slots_.push_back({GpuBuffer(ctx, total, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind::HostVisible,
                                    fmt::format("{} read-back, frame slot {}", what, i)),
                          std::nullopt});
}

void StateReadBack::record(VkCommandBuffer cmd, uint32_t slotIndex, uint64_t frame) {
    Slot& slot = slots_.at(slotIndex);
    if (slot.frame)
        throw std::logic_error(
            fmt::format("{}: frame slot {} recorded again before it was collected", what_, slotIndex));
    slot.frame = frame;
    computeToTransferBarrier(cmd);  // the frame's last writes of every source
    for (size_t i = 0; i < sources_.size(); ++i) {
        const VkBufferCopy region{0, offsets_[i], sources_[i].bytes};
        vkCmdCopyBuffer(cmd, sources_[i].buffer->handle(), slot.readBack.handle(), 1, &region);
    }
    transferToHostBarrier(cmd);         // read by take() after the slot's fence
    transferReadToComputeBarrier(cmd);  // the next frame overwrites what was copied
}

std::optional<StateReadBack::State> StateReadBack::take(uint32_t slotIndex, uint64_t frame) {
    Slot& slot = slots_.at(slotIndex);
    if (!slot.frame) return std::nullopt;  // this frame was not read back
    if (*slot.frame != frame)
        throw std::logic_error(fmt::format("{}: slot {} holds frame {}, not {}", what_, slotIndex, *slot.frame, frame));
    slot.frame.reset();
    const auto* bytes = static_cast<const std::byte*>(slot.readBack.mapped());
    State state{frame, {}};
    for (size_t i = 0; i < sources_.size(); ++i) state.sources.emplace_back(bytes + offsets_[i], sources_[i].bytes);
    return state;
}

}  // namespace vksim
