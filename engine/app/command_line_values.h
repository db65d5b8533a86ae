#pragma once
// Checks for the values of vksim's command-line options, as CLI11 validators
// take them: each returns "" when `text` is fine, else what was expected
// (CLI11 prefixes the option's name). Numbers are read whole and range-checked
// before conversion, so "4294967936x480" is refused rather than wrapped to
// 640x480, and an empty value is refused rather than read as "not given".
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vksim {

struct PixelSize {
    uint32_t width = 0;
    uint32_t height = 0;
};

inline constexpr uint32_t kMinPixels = 16;
inline constexpr uint32_t kMaxPixels = 8192;
// The most frames --frames asks for.
inline constexpr uint32_t kMaxCommandLineFrames = 100000000;

// "WxH" (or "WXH") with both in [kMinPixels, kMaxPixels]; nothing else.
std::optional<PixelSize> parsePixelSize(std::string_view text);
std::string checkPixelSize(const std::string& text);

// A decimal integer in [min, max], digits only (no sign, space or suffix).
std::optional<uint64_t> parseBoundedInteger(std::string_view text, uint64_t min, uint64_t max);
// The same, for CLI11: "expected an integer in [min, max], got '...'".
std::string checkBoundedInteger(const std::string& text, uint64_t min, uint64_t max);

// A file or folder name: not empty, and no control character (a NUL would
// cut it short in the C calls, a newline split the messages that name it).
std::string checkPath(const std::string& text);

// "64,128,256": integers in [min, max], comma-separated, at least one.
std::optional<std::vector<uint32_t>> parseIntegerList(std::string_view text, uint32_t min, uint32_t max);
std::string checkIntegerList(const std::string& text, uint32_t min, uint32_t max);

// --device: a device index (digits, as --list-devices prints them) or a
// non-empty name substring.
std::string checkDeviceSelector(const std::string& text);

}  // namespace vksim
