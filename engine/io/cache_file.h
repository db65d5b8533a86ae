#pragma once
// Writing a cache file next to an asset, through writeWholeFile
// (write_file.h: a temporary name, then renamed over the target), so that a
// reader (another vksim process, a test running in parallel) never sees half
// a file. Caches are a convenience: a directory that cannot be written is
// reported, not fatal.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace vksim {

// Writes `bytes` to `file` atomically. Returns nothing on success, else why
// not ("permission denied").
std::optional<std::string> writeCacheFile(const std::filesystem::path& file, std::string_view bytes);

}  // namespace vksim
