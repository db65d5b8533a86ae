#pragma once
// A contiguous range of particles [first, first + count): the particles of
// one object, or every particle one solver steps (GPU and CPU reference alike).
#include <cstdint>

namespace vksim {

struct ParticleRange {
    uint32_t first = 0;
    uint32_t count = 0;
    uint32_t end() const { return first + count; }
    bool contains(uint32_t particle) const { return particle >= first && particle - first < count; }
};

}  // namespace vksim
