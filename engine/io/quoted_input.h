#pragma once
// What a user handed us (a path, a key, a name, a command-line value) as a
// message shows it: every message that echoes input goes through here, so
// that none is longer than about 80 bytes of it whatever the input's size
// (a 100 kB path must not become a 100 kB line), none breaks the one-line
// promise, and a long value still shows where it starts and how it ends
// (a file's last folder and extension): the first bytes, "…", the last
// bytes, each cut at a UTF-8 character boundary.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace vksim {

inline constexpr std::size_t kMaxQuotedBytes = 80;

// In double quotes, JSON-escaped (control bytes as \n or \u0001, bytes that
// are not UTF-8 as U+FFFD); a text longer than `maxBytes` is shown as its
// first and last bytes around "…" and followed by its size:
// "assets/aaaaaaaa…aaaaaaaa/mesh.obj" (512 bytes).
std::string quoteInput(std::string_view text, std::size_t maxBytes = kMaxQuotedBytes);

// A command-line value, in single quotes as a shell would show it, control
// bytes as '?', followed by its size when cut: 'aaaa…aaaa' (100000 bytes).
std::string quoteArgument(std::string_view text, std::size_t maxBytes = kMaxQuotedBytes);

// The same cut without quotes or size, control bytes as '?', for a path
// that starts a message ("assets/aaaa…aaaa/mesh.obj: line 3: ...").
std::string clipInput(std::string_view text, std::size_t maxBytes = kMaxQuotedBytes);

}  // namespace vksim
