#pragma once
// 64-bit FNV-1a over the bits of every particle position (xyz), then of
// every rigid body's centre (xyz) and rotation (xyzw): the determinism
// fingerprint printed by --hash. Equal hashes mean bit-identical positions
// and poses; a scene without bodies hashes as its particles alone.
#include <cstdint>
#include <span>
#include <string>

#include <glm/glm.hpp>

#include "shaders/rigid/rigid_types.h"

namespace vksim {

uint64_t hashPositions(std::span<const glm::vec4> positions);
uint64_t hashState(std::span<const glm::vec4> positions, std::span<const gpu::RigidBodyState> bodies);
std::string formatHash(uint64_t hash);  // 16 lower-case hex digits

}  // namespace vksim
