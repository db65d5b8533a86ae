#include "sim/state_hash.h"

#include <cstring>

#include <fmt/format.h>

namespace vksim {

uint64_t hashPositions(std::span<const glm::vec4> positions) {
    uint64_t hash = 0xcbf29ce484222325ull;
    for (const glm::vec4& p : positions) {
        unsigned char bytes[3 * sizeof(float)];
        std::memcpy(bytes, &p, sizeof(bytes));
        for (unsigned char b : bytes) {
            hash ^= b;
            hash *= 0x100000001b3ull;
        }
    }
    return hash;
}

std::string formatHash(uint64_t hash) { return fmt::format("{:016x}", hash); }

}  // namespace vksim
