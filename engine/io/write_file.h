#pragma once
// Writes a whole file at once, for the exporters: the message of a failure
// names the file and the reason in one line.
#include <cstddef>
#include <filesystem>
#include <span>

namespace vksim {

// Creates or truncates `path` and writes `bytes`. Throws std::runtime_error
// ("PATH: cannot open for writing: REASON" or "PATH: write failed: REASON").
void writeWholeFile(const std::filesystem::path& path, std::span<const std::byte> bytes);

}  // namespace vksim
