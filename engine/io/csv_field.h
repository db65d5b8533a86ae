#pragma once
// A text field of a CSV file (RFC 4180): in double quotes, a quote inside
// doubled, so that commas, quotes and line breaks in names stay one field.
#include <string>
#include <string_view>

namespace vksim {

inline std::string csvField(std::string_view text) {
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

}  // namespace vksim
