#include "render/png_file.h"

#include <stdexcept>

#include <fmt/format.h>

// The one translation unit that holds stb_image_write's implementation.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO_OVERRIDE
#include <stb/stb_image_write.h>

namespace vksim {

void writePng(const std::string& path, uint32_t width, uint32_t height, std::span<const uint8_t> rgba) {
    if (rgba.size() != size_t(width) * height * 4)
        throw std::logic_error(fmt::format("writePng: {} bytes for a {}x{} image", rgba.size(), width, height));
    if (!stbi_write_png(path.c_str(), int(width), int(height), 4, rgba.data(), int(width * 4)))
        throw std::runtime_error(fmt::format("cannot write the screenshot '{}'", path));
}

}  // namespace vksim
