#pragma once
// FNV-1a, 64 bit: fast and deterministic. The asset caches use it to notice an
// edit (cache invalidation, not security), the state hash to compare runs bit
// for bit.
#include <cstdint>
#include <string_view>

namespace vksim {

inline constexpr uint64_t kFnv1aOffset = 14695981039346656037ull;

// Continues `hash` over `bytes`; kFnv1aOffset starts a new hash.
constexpr uint64_t fnv1a64(std::string_view bytes, uint64_t hash = kFnv1aOffset) {
    for (const char c : bytes) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 1099511628211ull;
    }
    return hash;
}

}  // namespace vksim
