#pragma once
// Signed distance grids of mesh colliders, baked once and kept next to the
// mesh: "<mesh file>.r<resolution>.sdfcache". The file is a header naming
// what it was baked from (the source's size, modification time and FNV-1a
// hash, the weld tolerance, the resolution and the bake's version) followed
// by the samples; a second load with the same source and settings reads it
// instead of baking (milliseconds instead of a fraction of a second or
// more). Any mismatch, or a damaged or truncated file, bakes again and
// rewrites it.
//
// Layout (native byte order): "vksimSDF", u32 format version, u32
// resolution, u64 source size, i64 source mtime [ns], u64 source hash, f64
// weld tolerance, u32 samples x/y/z, f64 spacing, f64 origin x/y/z, u64
// FNV-1a of all the bytes before it and of the value bytes, then
// samples.x*samples.y*samples.z f32 values. The samples, spacing and origin
// must also equal what the mesh gives (sdfGridLayout), bit for bit.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "geometry/signed_distance_grid.h"
#include "io/triangle_surface.h"

namespace vksim {

struct CachedSdfGrid {
    std::shared_ptr<const SignedDistanceGrid> grid;
    std::filesystem::path cacheFile;
    bool fromCache = false;
    double seconds = 0.0;      // baking, or reading the cache
    std::string cacheNote;     // why the cache was not used or not written, if it matters
};

std::filesystem::path sdfCachePath(const std::filesystem::path& meshFile, uint32_t resolution);

// The grid of `surface` (closed, loaded from `meshFile`) at `resolution`,
// from the cache when it is valid, else baked and cached.
CachedSdfGrid loadOrBakeSdfGrid(const TriangleSurface& surface, const std::filesystem::path& meshFile,
                                uint32_t resolution);

// The grid in `bytes` (a cache file's contents) when they are a valid cache
// of `surface` at `resolution`, else nothing and why not in `whyNot`
// ("truncated or damaged", "the mesh file changed", ...). What
// loadOrBakeSdfGrid reads a cache file with.
std::optional<SignedDistanceGrid> decodeSdfGridCache(std::string_view bytes, const TriangleSurface& surface,
                                                     uint32_t resolution, std::string& whyNot);

// The bytes of the cache file of `grid`, baked from `surface` at `resolution`.
std::string encodeSdfGridCache(const TriangleSurface& surface, uint32_t resolution, const SignedDistanceGrid& grid);

// One line for the log: "assets/torus.obj: SDF grid 73x28x73 (spacing 0.0197)
// baked in 0.41 s, cached in assets/torus.obj.r64.sdfcache" or "... loaded
// from cache assets/torus.obj.r64.sdfcache in 0.002 s".
std::string describeSdfGrid(const std::string& meshFile, const CachedSdfGrid& cached);

}  // namespace vksim
