#pragma once
// Reading an asset file whole, with the fingerprint that cache files record
// so that a changed source is noticed: its size, modification time and an
// FNV-1a hash of its bytes. The hash is what decides (a checkout that only
// touches the modification time keeps the cache valid); size and time are
// recorded so that a person reading a cache header can tell where it came from.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace vksim {

struct SourceFingerprint {
    uint64_t size = 0;
    int64_t modifiedNs = 0;  // last write time, nanoseconds since the file clock's epoch
    uint64_t hash = 0;       // FNV-1a 64 of the bytes

    bool sameContent(const SourceFingerprint& other) const { return size == other.size && hash == other.hash; }
};

struct AssetFile {
    std::string bytes;
    SourceFingerprint fingerprint;
};

// Asset files are meshes of at most a few million elements; anything larger
// is refused rather than slurped.
inline constexpr std::size_t kMaxAssetFileBytes = 256u << 20;

// The whole file. Throws AssetError "<file>: cannot open file: <reason>" (and
// likewise for a directory, a read error or a file over kMaxAssetFileBytes).
AssetFile readAssetFile(const std::filesystem::path& file);

}  // namespace vksim
