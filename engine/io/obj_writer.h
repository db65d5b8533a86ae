#pragma once
// Wavefront OBJ text for one mesh: `v x y z`, `vn x y z` (one normal per
// vertex) and `f a//a b//b c//c` (1-based, vertex and normal indices equal).
// Floats are written with 9 significant digits, which reads back to the very
// same float.
#include <filesystem>
#include <string>
#include <string_view>

#include "io/mesh_view.h"

namespace vksim {

// The file's text; `objectName` goes into the `o` line, `comment` into a
// leading `#` line (both must be single lines).
std::string formatObj(const MeshView& mesh, std::string_view objectName, std::string_view comment);

// Writes formatObj() to `path`. Throws std::runtime_error naming the file
// when it cannot be written.
void writeObj(const std::filesystem::path& path, const MeshView& mesh, std::string_view objectName,
              std::string_view comment);

}  // namespace vksim
