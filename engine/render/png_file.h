#pragma once
// PNG files through stb_image_write (libstb-dev).
#include <cstdint>
#include <span>
#include <string>

namespace vksim {

// Writes tightly packed 8-bit RGBA pixels, top row first. Throws
// WriteError (io/write_file.h) naming the file when it cannot be written.
void writePng(const std::string& path, uint32_t width, uint32_t height, std::span<const uint8_t> rgba);

}  // namespace vksim
