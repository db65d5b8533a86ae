#include "io/quoted_input.h"

#include <fmt/format.h>

namespace vksim {
namespace {

constexpr std::string_view kEllipsis = "\u2026";  // "…", 3 bytes

bool isContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The part of a long text that is shown: its first bytes and its last.
struct Shown {
    std::string_view head, tail;
    bool cut = false;
};

Shown shownParts(std::string_view text, std::size_t maxBytes) {
    if (text.size() <= maxBytes) return {text, {}, false};
    // A fifth for the end: 16 of 80 keep a file's extension and last name.
    const std::size_t tailBytes = maxBytes / 5;
    const std::size_t headBytes = maxBytes > tailBytes + kEllipsis.size() ? maxBytes - tailBytes - kEllipsis.size() : 0;
    std::size_t headEnd = headBytes;
    while (headEnd > 0 && isContinuation(text[headEnd])) --headEnd;
    std::size_t tailStart = text.size() - tailBytes;
    while (tailStart < text.size() && isContinuation(text[tailStart])) ++tailStart;
    return {text.substr(0, headEnd), text.substr(tailStart), true};
}

// The length of the UTF-8 character at text[i], or 0 when the bytes there
// are not one (a stray continuation byte, a truncated or overlong sequence,
// a surrogate, past U+10FFFF).
std::size_t utf8Length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    if (lead < 0x80) return 1;
    std::size_t length = 0;
    uint32_t min = 0, code = 0;
    if ((lead & 0xE0) == 0xC0) length = 2, min = 0x80, code = lead & 0x1F;
    else if ((lead & 0xF0) == 0xE0) length = 3, min = 0x800, code = lead & 0x0F;
    else if ((lead & 0xF8) == 0xF0) length = 4, min = 0x10000, code = lead & 0x07;
    else return 0;
    if (i + length > text.size()) return 0;
    for (std::size_t k = 1; k < length; ++k) {
        if (!isContinuation(text[i + k])) return 0;
        code = (code << 6) | (byte(i + k) & 0x3F);
    }
    if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
    return length;
}

std::string jsonEscaped(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        const std::size_t length = utf8Length(text, i);
        if (length == 0) {
            out += "\uFFFD";
            ++i;
            continue;
        }
        if (length > 1) out += text.substr(i, length);
        else if (c == '"') out += "\\\"";
        else if (c == '\\') out += "\\\\";
        else if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '\r') out += "\\r";
        else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
        else out += c;
        i += length;
    }
    return out;
}

std::string printable(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return out;
}

}  // namespace

std::string quoteInput(std::string_view text, std::size_t maxBytes) {
    const Shown shown = shownParts(text, maxBytes);
    if (!shown.cut) return "\"" + jsonEscaped(text) + "\"";
    return fmt::format("\"{}{}{}\" ({} bytes)", jsonEscaped(shown.head), kEllipsis, jsonEscaped(shown.tail),
                       text.size());
}

std::string quoteArgument(std::string_view text, std::size_t maxBytes) {
    const std::string shown = "'" + clipInput(text, maxBytes) + "'";
    return text.size() > maxBytes ? fmt::format("{} ({} bytes)", shown, text.size()) : shown;
}

std::string clipInput(std::string_view text, std::size_t maxBytes) {
    const Shown shown = shownParts(text, maxBytes);
    if (!shown.cut) return printable(text);
    return printable(shown.head) + std::string(kEllipsis) + printable(shown.tail);
}

}  // namespace vksim
