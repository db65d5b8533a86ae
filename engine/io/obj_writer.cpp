#include "io/obj_writer.h"

#include <iterator>

#include <fmt/format.h>

#include "io/write_file.h"

namespace vksim {

std::string formatObj(const MeshView& mesh, std::string_view objectName, std::string_view comment) {
    fmt::memory_buffer out;
    auto text = std::back_inserter(out);
    fmt::format_to(text, "# {}\no {}\n", comment, objectName);
    for (const glm::vec4& p : mesh.positions) fmt::format_to(text, "v {:.9g} {:.9g} {:.9g}\n", p.x, p.y, p.z);
    for (const glm::vec4& n : mesh.normals) fmt::format_to(text, "vn {:.9g} {:.9g} {:.9g}\n", n.x, n.y, n.z);
    for (size_t t = 0; t + 2 < mesh.triangles.size(); t += 3) {
        const uint32_t a = mesh.triangles[t] + 1, b = mesh.triangles[t + 1] + 1, c = mesh.triangles[t + 2] + 1;
        fmt::format_to(text, "f {0}//{0} {1}//{1} {2}//{2}\n", a, b, c);
    }
    return fmt::to_string(out);
}

void writeObj(const std::filesystem::path& path, const MeshView& mesh, std::string_view objectName,
              std::string_view comment) {
    const std::string text = formatObj(mesh, objectName, comment);
    writeWholeFile(path, std::as_bytes(std::span(text)));
}

}  // namespace vksim
