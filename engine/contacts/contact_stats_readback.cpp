#include "contacts/contact_stats_readback.h"

#include <cstring>

#include <fmt/format.h>

#include "contacts/contact_stage.h"
#include "vk/barriers.h"

namespace vksim {

ContactStatsReadback::ContactStatsReadback(const VulkanContext& ctx, const ContactStage& contacts, uint32_t frameSlots)
    : contacts_(contacts), pending_(frameSlots, false) {
    for (uint32_t slot = 0; slot < frameSlots; ++slot)
        copies_.emplace_back(ctx, sizeof(gpu::ContactStats), VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind::HostVisible,
                             fmt::format("contact stats, frame slot {}", slot));
}

void ContactStatsReadback::record(VkCommandBuffer cmd, uint32_t slot) {
    computeToTransferBarrier(cmd);  // the frame's detection wrote the stats
    const VkBufferCopy region{0, 0, sizeof(gpu::ContactStats)};
    vkCmdCopyBuffer(cmd, contacts_.stats().handle(), copies_.at(slot).handle(), 1, &region);
    transferToHostBarrier(cmd);         // read by collect() after the slot's fence
    transferReadToComputeBarrier(cmd);  // the next frame's detection rewrites the stats
    pending_.at(slot) = true;
}

void ContactStatsReadback::collect(uint32_t slot) {
    if (!pending_.at(slot)) return;
    pending_.at(slot) = false;
    gpu::ContactStats stats;
    std::memcpy(&stats, copies_.at(slot).mapped(), sizeof(stats));
    last_ = stats;
}

void ContactStatsReadback::forget() {
    pending_.assign(pending_.size(), false);
    last_.reset();
}

}  // namespace vksim
