#pragma once
// 64-bit FNV-1a over the bits of every particle position (xyz), the
// determinism fingerprint printed by --hash: equal hashes mean bit-identical
// positions.
#include <cstdint>
#include <span>
#include <string>

#include <glm/glm.hpp>

namespace vksim {

uint64_t hashPositions(std::span<const glm::vec4> positions);
std::string formatHash(uint64_t hash);  // 16 lower-case hex digits

}  // namespace vksim
