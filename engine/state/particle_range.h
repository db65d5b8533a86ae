#pragma once
// A contiguous range of particles [first, first + count): the particles of
// one object, or every particle one solver steps (GPU and CPU reference alike).
#include <algorithm>
#include <cstdint>
#include <span>

namespace vksim {

struct ParticleRange {
    uint32_t first = 0;
    uint32_t count = 0;
    uint32_t end() const { return first + count; }
    bool contains(uint32_t particle) const { return particle >= first && particle - first < count; }
};

// The entries [first, first + count) of a list of per-particle records kept
// in particle order (tethers, attachments) whose particles lie in a range.
struct ListSlice {
    uint32_t first = 0;
    uint32_t count = 0;
};

// `particleOf`: each entry's particle, ascending.
inline ListSlice sliceOf(std::span<const uint32_t> particleOf, ParticleRange range) {
    const auto begin = std::lower_bound(particleOf.begin(), particleOf.end(), range.first);
    const auto end = std::lower_bound(begin, particleOf.end(), range.end());
    return {static_cast<uint32_t>(begin - particleOf.begin()), static_cast<uint32_t>(end - begin)};
}

}  // namespace vksim
