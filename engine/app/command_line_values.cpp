#include "app/command_line_values.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "io/quoted_input.h"

namespace vksim {
namespace {

bool allDigits(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::optional<uint64_t> parseBoundedInteger(std::string_view text, uint64_t min, uint64_t max) {
    if (!allDigits(text)) return std::nullopt;
    uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;  // overflow included
    if (value < min || value > max) return std::nullopt;
    return value;
}

std::string checkBoundedInteger(const std::string& text, uint64_t min, uint64_t max) {
    if (parseBoundedInteger(text, min, max)) return {};
    return fmt::format("expected an integer in [{}, {}], got {}", min, max, quoteArgument(text));
}

std::optional<PixelSize> parsePixelSize(std::string_view text) {
    const std::size_t x = text.find_first_of("xX");
    if (x == std::string_view::npos) return std::nullopt;
    const auto width = parseBoundedInteger(text.substr(0, x), kMinPixels, kMaxPixels);
    const auto height = parseBoundedInteger(text.substr(x + 1), kMinPixels, kMaxPixels);
    if (!width || !height) return std::nullopt;
    return PixelSize{static_cast<uint32_t>(*width), static_cast<uint32_t>(*height)};
}

std::string checkPixelSize(const std::string& text) {
    if (parsePixelSize(text)) return {};
    return fmt::format("expected WxH with {} <= W, H <= {}, e.g. 1280x720, got {}", kMinPixels, kMaxPixels,
                       quoteArgument(text));
}

std::string checkPath(const std::string& text) {
    if (text.empty()) return "expected a file name, got ''";
    if (std::any_of(text.begin(), text.end(), [](char c) { return std::iscntrl(static_cast<unsigned char>(c)); }))
        return fmt::format("expected a file name without control characters, got {}", quoteArgument(text));
    return {};
}

std::optional<std::vector<uint32_t>> parseIntegerList(std::string_view text, uint32_t min, uint32_t max) {
    std::vector<uint32_t> values;
    for (;;) {
        const std::size_t comma = text.find(',');
        const std::optional<uint64_t> value = parseBoundedInteger(text.substr(0, comma), min, max);
        if (!value) return std::nullopt;  // an empty entry included
        values.push_back(static_cast<uint32_t>(*value));
        if (comma == std::string_view::npos) return values;
        text.remove_prefix(comma + 1);
    }
}

std::string checkIntegerList(const std::string& text, uint32_t min, uint32_t max) {
    return parseIntegerList(text, min, max)
               ? std::string()
               : fmt::format("expected comma-separated integers in [{}, {}], got {}", min, max, quoteArgument(text));
}

std::string checkDeviceSelector(const std::string& text) {
    if (text.empty()) return "expected a device index or a name substring, got ''";
    // Indices are small; a longer run of digits is no device.
    if (allDigits(text) && !parseBoundedInteger(text, 0, 65535))
        return fmt::format("expected a device index in [0, 65535] (see --list-devices), got {}", quoteArgument(text));
    return {};
}

}  // namespace vksim
