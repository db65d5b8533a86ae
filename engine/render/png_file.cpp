#include "render/png_file.h"

#include <cstddef>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "io/write_file.h"

// The one translation unit that holds stb_image_write's implementation.
// Without its stdio functions: the PNG is encoded in memory and written
// through writeWholeFile, like every other file vksim produces, so that a
// failed write is reported and never leaves half an image.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO
#include <stb/stb_image_write.h>

namespace vksim {
namespace {

void append(void* context, void* data, int size) {
    auto* bytes = static_cast<std::vector<std::byte>*>(context);
    const auto* first = static_cast<const std::byte*>(data);
    bytes->insert(bytes->end(), first, first + size);
}

}  // namespace

void writePng(const std::string& path, uint32_t width, uint32_t height, std::span<const uint8_t> rgba) {
    if (rgba.size() != size_t(width) * height * 4)
        throw std::logic_error(fmt::format("writePng: {} bytes for a {}x{} image", rgba.size(), width, height));
    std::vector<std::byte> png;
    if (!stbi_write_png_to_func(&append, &png, int(width), int(height), 4, rgba.data(), int(width * 4)))
        throw WriteError(path, "the PNG could not be encoded");
    writeWholeFile(path, png);
}

}  // namespace vksim
