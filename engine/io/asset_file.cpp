#include "io/asset_file.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "io/asset_error.h"

namespace vksim {

uint64_t fnv1a64(std::string_view bytes, uint64_t hash) {
    for (unsigned char byte : bytes) {
        hash ^= byte;
        hash *= 1099511628211ull;
    }
    return hash;
}

AssetFile readAssetFile(const std::filesystem::path& file) {
    auto fail = [&](std::string_view problem) { throw AssetError(fmt::format("{}: {}", file.string(), problem)); };
    std::error_code error;
    if (std::filesystem::is_directory(file, error)) fail(fmt::format("cannot open file: {}", std::strerror(EISDIR)));

    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> stream(std::fopen(file.c_str(), "rb"), &std::fclose);
    if (!stream) fail(fmt::format("cannot open file: {}", std::strerror(errno)));
    AssetFile result;
    char buffer[1 << 16];
    while (std::size_t bytes = std::fread(buffer, 1, sizeof buffer, stream.get())) {
        result.bytes.append(buffer, bytes);
        if (result.bytes.size() > kMaxAssetFileBytes)
            fail(fmt::format("file is larger than {} MiB", kMaxAssetFileBytes >> 20));
    }
    if (std::ferror(stream.get())) fail(fmt::format("cannot read file: {}", std::strerror(errno)));

    result.fingerprint.size = result.bytes.size();
    result.fingerprint.hash = fnv1a64(result.bytes);
    const auto modified = std::filesystem::last_write_time(file, error);
    if (!error)
        result.fingerprint.modifiedNs =
            std::chrono::duration_cast<std::chrono::nanoseconds>(modified.time_since_epoch()).count();
    return result;
}

}  // namespace vksim
