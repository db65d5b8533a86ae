#include "io/ply_writer.h"

#include <bit>
#include <cstdint>

#include <fmt/format.h>

#include "io/write_file.h"

namespace vksim {
namespace {

// Appends `value` least significant byte first.
void putLittleEndian(std::vector<std::byte>& out, uint32_t value) {
    for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<std::byte>((value >> shift) & 0xffu));
}

void putFloat(std::vector<std::byte>& out, float value) { putLittleEndian(out, std::bit_cast<uint32_t>(value)); }

}  // namespace

std::vector<std::byte> formatPly(const MeshView& mesh, std::string_view comment) {
    const size_t triangleCount = mesh.triangles.size() / 3;
    const std::string header = fmt::format(
        "ply\n"
        "format binary_little_endian 1.0\n"
        "comment {}\n"
        "element vertex {}\n"
        "property float x\nproperty float y\nproperty float z\n"
        "property float nx\nproperty float ny\nproperty float nz\n"
        "element face {}\n"
        "property list uchar uint vertex_indices\n"
        "end_header\n",
        comment, mesh.positions.size(), triangleCount);
    std::vector<std::byte> out;
    out.reserve(header.size() + mesh.positions.size() * 24 + triangleCount * 13);
    for (char c : header) out.push_back(static_cast<std::byte>(c));
    for (size_t v = 0; v < mesh.positions.size(); ++v) {
        for (int axis = 0; axis < 3; ++axis) putFloat(out, mesh.positions[v][axis]);
        for (int axis = 0; axis < 3; ++axis) putFloat(out, mesh.normals[v][axis]);
    }
    for (size_t t = 0; t < triangleCount; ++t) {
        out.push_back(std::byte{3});
        for (size_t k = 0; k < 3; ++k) putLittleEndian(out, mesh.triangles[3 * t + k]);
    }
    return out;
}

void writePly(const std::filesystem::path& path, const MeshView& mesh, std::string_view comment) {
    writeWholeFile(path, formatPly(mesh, comment));
}

}  // namespace vksim
