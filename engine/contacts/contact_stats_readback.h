#pragma once
// The contact stats (gpu::ContactStats) of every frame without waiting for
// the queue: after the frame's passes a copy into a host-visible buffer of
// the frame slot, read when the world collects that slot (after its fence).
// What the viewer's Contacts panel shows while the simulation runs.
#include <cstdint>
#include <optional>
#include <vector>

#include <volk.h>

#include "shaders/contacts/contact_types.h"
#include "vk/buffer.h"

namespace vksim {

class ContactStage;
class VulkanContext;

class ContactStatsReadback {
public:
    ContactStatsReadback(const VulkanContext& ctx, const ContactStage& contacts, uint32_t frameSlots);

    // After the frame's last pass: the copy into slot `slot`'s buffer.
    void record(VkCommandBuffer cmd, uint32_t slot);
    // Instead of record(): the slot's recorded commands run again, copy included.
    void replay(uint32_t slot) { pending_.at(slot) = true; }
    // Reads the slot's copy (its fence must have signalled); no-op when
    // nothing was recorded into it since the last collect.
    void collect(uint32_t slot);
    // The world went back to its initial state: nothing collected yet.
    void forget();

    // The stats of the frame collected last, cumulative since the last
    // reset; nullopt before the first.
    const std::optional<gpu::ContactStats>& last() const { return last_; }

private:
    const ContactStage& contacts_;
    std::vector<GpuBuffer> copies_;
    std::vector<bool> pending_;
    std::optional<gpu::ContactStats> last_;
};

}  // namespace vksim
