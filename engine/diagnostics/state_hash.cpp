#include "diagnostics/state_hash.h"

#include <cstring>

#include <fmt/format.h>

#include "io/fnv1a.h"

namespace vksim {

namespace {

uint64_t addBytes(uint64_t hash, const void* data, std::size_t size) {
    return fnv1a64(std::string_view(static_cast<const char*>(data), size), hash);
}

}  // namespace

uint64_t hashPositions(std::span<const glm::vec4> positions) { return hashState(positions, {}); }

uint64_t hashState(std::span<const glm::vec4> positions, std::span<const gpu::RigidBodyState> bodies) {
    uint64_t hash = kFnv1aOffset;
    for (const glm::vec4& p : positions) hash = addBytes(hash, &p, 3 * sizeof(float));
    for (const gpu::RigidBodyState& s : bodies) {
        hash = addBytes(hash, &s.position, 3 * sizeof(float));
        hash = addBytes(hash, &s.rotation, 4 * sizeof(float));
    }
    return hash;
}

std::string formatHash(uint64_t hash) { return fmt::format("{:016x}", hash); }

}  // namespace vksim
