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

namespace vksim {

struct PixelSize {
    uint32_t width = 0;
    uint32_t height = 0;
};

inline constexpr uint32_t kMinPixels = 16;
inline constexpr uint32_t kMaxPixels = 8192;

// "WxH" (or "WXH") with both in [kMinPixels, kMaxPixels]; nothing else.
std::optional<PixelSize> parsePixelSize(std::string_view text);
std::string checkPixelSize(const std::string& text);

// A decimal integer in [min, max], digits only (no sign, space or suffix).
std::optional<uint64_t> parseBoundedInteger(std::string_view text, uint64_t min, uint64_t max);
// The same, for CLI11: "expected an integer in [min, max], got '...'".
std::string checkBoundedInteger(const std::string& text, uint64_t min, uint64_t max);

// Any value but the empty string (a scene, a folder, a device).
std::string checkNotEmpty(const std::string& text);

// --device: a device index (digits, as --list-devices prints them) or a
// non-empty name substring.
std::string checkDeviceSelector(const std::string& text);

}  // namespace vksim
