#pragma once
// Binary little-endian PLY for one mesh: a vertex element with float x y z
// nx ny nz (24 bytes per vertex) and a face element with a uchar count (3)
// and uint indices (13 bytes per triangle), the layout Blender, MeshLab and
// Houdini read without conversion. Little-endian whatever the host's order.
#include <cstddef>
#include <filesystem>
#include <string_view>
#include <vector>

#include "io/mesh_view.h"

namespace vksim {

// The file's bytes: the ASCII header (with `comment` as a comment line, which
// must be a single line), then the vertex and face data.
std::vector<std::byte> formatPly(const MeshView& mesh, std::string_view comment);

// Writes formatPly() to `path`. Throws std::runtime_error naming the file
// when it cannot be written.
void writePly(const std::filesystem::path& path, const MeshView& mesh, std::string_view comment);

}  // namespace vksim
