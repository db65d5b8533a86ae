#pragma once
// GPU state buffers read back without stalling the frame loop: a frame that
// wants them ends with a copy of each into a host-visible buffer of its frame
// slot, and they are read when that slot is collected after its fence. What
// the mesh export (positions, normals, body states), the pose output (body
// states) and the soak sampler (positions and velocities) share.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <volk.h>

#include "vk/buffer.h"

namespace vksim {

class VulkanContext;

class StateReadBack {
public:
    // What one copy reads: the first `bytes` of `buffer`.
    struct Source {
        const GpuBuffer* buffer = nullptr;
        VkDeviceSize bytes = 0;
    };
    // `what` names the read-back buffers ("export", "soak"). Every source
    // holds something: a caller with nothing to read (no particles, no
    // bodies) leaves it out, and one with no source at all makes no
    // read-back. Throws std::invalid_argument for no source, a source of 0
    // bytes or one past its buffer's end.
    StateReadBack(const VulkanContext& ctx, std::string_view what, std::vector<Source> sources, uint32_t frameSlots);

    // Records, at the end of `frame` in slot `slot`, the copy of every source
    // with its barriers: after the frame's last compute writes, before the
    // host reads, and before the next frame writes the buffers again. Throws
    // std::logic_error if the slot still holds a frame nobody took.
    void record(VkCommandBuffer cmd, uint32_t slot, uint64_t frame);

    struct State {
        uint64_t frame = 0;
        std::vector<std::span<const std::byte>> sources;  // in the constructor's order; valid until the slot records again

        // Source `i` as an array of T.
        template <typename T>
        std::span<const T> as(size_t i) const {
            const std::span<const std::byte> bytes = sources.at(i);
            return {reinterpret_cast<const T*>(bytes.data()), bytes.size() / sizeof(T)};
        }
    };
    // What slot `slot` copied, if its collected frame `frame` was read back;
    // nothing otherwise. Throws std::logic_error if it holds another frame.
    std::optional<State> take(uint32_t slot, uint64_t frame);

private:
    struct Slot {
        GpuBuffer readBack;  // every source, one after another
        std::optional<uint64_t> frame;
    };
    std::string what_;
    std::vector<Source> sources_;
    std::vector<VkDeviceSize> offsets_;  // of each source in a slot's buffer
    std::vector<Slot> slots_;
};

}  // namespace vksim
