#pragma once
// Two particle state buffers (vec4 per particle) read back without stalling
// the frame loop: a frame that wants them ends with a copy of both into a
// host-visible buffer of its frame slot, and they are read when that slot is
// collected after its fence. What the mesh export (positions and normals) and
// the soak sampler (positions and velocities) share.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec4.hpp>
#include <volk.h>

#include "vk/buffer.h"

namespace vksim {

class VulkanContext;

class StateReadBack {
public:
    // `what` names the read-back buffers ("export", "soak"); `first` and
    // `second` are the state buffers the copies read, particleCount vec4 each.
    StateReadBack(const VulkanContext& ctx, std::string_view what, const GpuBuffer& first, const GpuBuffer& second,
                  uint32_t particleCount, uint32_t frameSlots);

    // Records, at the end of `frame` in slot `slot`, the copy of both buffers
    // with its barriers: after the frame's last compute writes, before the
    // host reads, and before the next frame writes the buffers again. Throws
    // std::logic_error if the slot still holds a frame nobody took.
    void record(VkCommandBuffer cmd, uint32_t slot, uint64_t frame);

    struct State {
        uint64_t frame;
        std::span<const glm::vec4> first, second;  // valid until the slot records again
    };
    // What slot `slot` copied, if its collected frame `frame` was read back;
    // nothing otherwise. Throws std::logic_error if it holds another frame.
    std::optional<State> take(uint32_t slot, uint64_t frame);

private:
    struct Slot {
        GpuBuffer readBack;  // first, then second, of every particle
        std::optional<uint64_t> frame;
    };
    std::string what_;
    const GpuBuffer& first_;
    const GpuBuffer& second_;
    uint32_t particleCount_;
    std::vector<Slot> slots_;
};

}  // namespace vksim
