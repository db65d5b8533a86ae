#pragma once
// One object's surface at one frame, as the mesh writers take it: borrowed
// views of the read-back particle state and of the object's triangles, with
// indices local to the object (0 = its first particle).
#include <cstdint>
#include <span>
#include <string_view>

#include <glm/glm.hpp>

namespace vksim {

struct MeshView {
    std::span<const glm::vec4> positions;  // xyz used (w is the inverse mass)
    std::span<const glm::vec4> normals;    // xyz used; one per position
    std::span<const uint32_t> triangles;   // 3 indices into positions per triangle, counter-clockwise
};

// The file formats --export writes.
enum class MeshFormat { Obj, Ply };

constexpr std::string_view fileExtension(MeshFormat format) { return format == MeshFormat::Obj ? ".obj" : ".ply"; }

}  // namespace vksim
