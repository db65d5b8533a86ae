#include "io/sdf_grid_cache.h"

#include <chrono>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "geometry/mesh_sdf_bake.h"
#include "io/asset_error.h"
#include "io/binary_fields.h"
#include "io/cache_file.h"
#include "io/fnv1a.h"
#include "io/quoted_input.h"

namespace vksim {
namespace {

constexpr char kMagic[8] = {'v', 'k', 's', 'i', 'm', 'S', 'D', 'F'};
// Bump whenever the bake computes something different, or the layout changes.
// 2: the checksum covers the header as well as the values.
constexpr uint32_t kFormatVersion = 2;

struct CacheKey {
    uint32_t resolution;
    SourceFingerprint source;
    double weldTolerance;
};

std::string encode(const CacheKey& key, const SignedDistanceGrid& grid) {
    std::string out(kMagic, sizeof kMagic);
    binary::put(out, kFormatVersion);
    binary::put(out, key.resolution);
    binary::put(out, key.source.size);
    binary::put(out, key.source.modifiedNs);
    binary::put(out, key.source.hash);
    binary::put(out, key.weldTolerance);
    for (int axis = 0; axis < 3; ++axis) binary::put(out, grid.samples[axis]);
    binary::put(out, grid.spacing);
    for (int axis = 0; axis < 3; ++axis) binary::put(out, grid.origin[axis]);
    const std::string_view values(reinterpret_cast<const char*>(grid.values.data()),
                                  grid.values.size() * sizeof(float));
    binary::put(out, fnv1a64(values, fnv1a64(out)));  // header, then values
    out.append(values);
    return out;
}

// The grid in `bytes` if they are a valid cache for `key` whose layout is
// `expected` (sdfGridLayout of the mesh), else why not. The layout is
// compared exactly, so that a damaged spacing or origin (a flipped bit gave
// a spacing of -0.0394) never reaches the GPU; the checksum then covers the
// header and the values.
std::optional<SignedDistanceGrid> decode(std::string_view bytes, const CacheKey& key,
                                         const SignedDistanceGrid& expected, std::string& whyNot) {
    std::size_t at = 0;
    if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
        whyNot = "not a vksim SDF cache";
        return std::nullopt;
    }
    at = sizeof kMagic;
    const auto version = binary::take<uint32_t>(bytes, at);
    const auto resolution = binary::take<uint32_t>(bytes, at);
    const auto size = binary::take<uint64_t>(bytes, at);
    binary::take<int64_t>(bytes, at);  // modification time: informative only
    const auto hash = binary::take<uint64_t>(bytes, at);
    const auto weldTolerance = binary::take<double>(bytes, at);
    if (!weldTolerance) {
        whyNot = "truncated";
        return std::nullopt;
    }
    if (*version != kFormatVersion) {
        whyNot = "written by another version of the baker";
        return std::nullopt;
    }
    if (*size != key.source.size || *hash != key.source.hash) {
        whyNot = "the mesh file changed";
        return std::nullopt;
    }
    if (*resolution != key.resolution || *weldTolerance != key.weldTolerance) {
        whyNot = "baked with other settings";
        return std::nullopt;
    }
    SignedDistanceGrid grid;
    for (int axis = 0; axis < 3; ++axis) grid.samples[axis] = binary::take<uint32_t>(bytes, at).value_or(0);
    grid.spacing = binary::take<double>(bytes, at).value_or(0.0);
    for (int axis = 0; axis < 3; ++axis) grid.origin[axis] = binary::take<double>(bytes, at).value_or(0.0);
    const std::size_t headerBytes = at;
    const auto checksum = binary::take<uint64_t>(bytes, at);
    const uint64_t count = uint64_t(grid.samples.x) * grid.samples.y * grid.samples.z;
    if (!checksum || grid.samples.x < 2 || grid.samples.y < 2 || grid.samples.z < 2 ||
        bytes.size() - at != count * sizeof(float)) {
        whyNot = "truncated or damaged";
        return std::nullopt;
    }
    if (grid.samples != expected.samples || !(grid.spacing == expected.spacing) ||
        !(grid.origin == expected.origin)) {
        // Shortest round-trip digits: a flipped low bit must show.
        whyNot = fmt::format("damaged header: grid {}x{}x{}, spacing {}, origin ({}, {}, {}); the mesh gives "
                             "{}x{}x{}, spacing {}, origin ({}, {}, {})",
                             grid.samples.x, grid.samples.y, grid.samples.z, grid.spacing, grid.origin.x,
                             grid.origin.y, grid.origin.z, expected.samples.x, expected.samples.y, expected.samples.z,
                             expected.spacing, expected.origin.x, expected.origin.y, expected.origin.z);
        return std::nullopt;
    }
    const std::string_view values = bytes.substr(at);
    if (fnv1a64(values, fnv1a64(bytes.substr(0, headerBytes))) != *checksum) {
        whyNot = "damaged (checksum)";
        return std::nullopt;
    }
    grid.values.resize(count);
    std::memcpy(grid.values.data(), values.data(), values.size());
    return grid;
}

}  // namespace

std::optional<SignedDistanceGrid> decodeSdfGridCache(std::string_view bytes, const TriangleSurface& surface,
                                                     uint32_t resolution, std::string& whyNot) {
    const CacheKey key{resolution, surface.source, surface.weldTolerance};
    return decode(bytes, key, sdfGridLayout(surface.positions, resolution), whyNot);
}

std::string encodeSdfGridCache(const TriangleSurface& surface, uint32_t resolution, const SignedDistanceGrid& grid) {
    return encode(CacheKey{resolution, surface.source, surface.weldTolerance}, grid);
}

std::filesystem::path sdfCachePath(const std::filesystem::path& meshFile, uint32_t resolution) {
    return meshFile.string() + fmt::format(".r{}.sdfcache", resolution);
}

CachedSdfGrid loadOrBakeSdfGrid(const TriangleSurface& surface, const std::filesystem::path& meshFile,
                                uint32_t resolution) {
    CachedSdfGrid result;
    result.cacheFile = sdfCachePath(meshFile, resolution);

    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    std::error_code error;
    if (std::filesystem::exists(result.cacheFile, error)) {
        std::string whyNot;
        try {
            const AssetFile cache = readAssetFile(result.cacheFile);
            if (auto grid = decodeSdfGridCache(cache.bytes, surface, resolution, whyNot)) {
                result.grid = std::make_shared<const SignedDistanceGrid>(std::move(*grid));
                result.fromCache = true;
                result.seconds = elapsed();
                return result;
            }
        } catch (const AssetError& unreadable) {
            whyNot = unreadable.what();
        }
        result.cacheNote = fmt::format("cache not used: {}", whyNot);
    }

    auto grid = std::make_shared<const SignedDistanceGrid>(
        bakeSignedDistanceGrid(surface.positions, surface.triangles, resolution));
    result.seconds = elapsed();
    result.grid = grid;
    if (auto failed = writeCacheFile(result.cacheFile, encodeSdfGridCache(surface, resolution, *grid)))
        result.cacheNote += fmt::format("{}cache not written: {}", result.cacheNote.empty() ? "" : "; ", *failed);
    return result;
}

std::string describeSdfGrid(const std::string& meshFile, const CachedSdfGrid& cached) {
    const SignedDistanceGrid& grid = *cached.grid;
    std::string text = fmt::format("{}: SDF grid {}x{}x{} (spacing {:.3g}) ", meshFile, grid.samples.x,
                                   grid.samples.y, grid.samples.z, grid.spacing);
    if (cached.fromCache)
        return text +
               fmt::format("loaded from cache {} in {:.3f} s", clipInput(cached.cacheFile.string()), cached.seconds);
    text += fmt::format("baked in {:.2f} s", cached.seconds);
    if (cached.cacheNote.find("not written") == std::string::npos)
        text += fmt::format(", cached in {}", clipInput(cached.cacheFile.string()));
    if (!cached.cacheNote.empty()) text += fmt::format(" ({})", cached.cacheNote);
    return text;
}

}  // namespace vksim
