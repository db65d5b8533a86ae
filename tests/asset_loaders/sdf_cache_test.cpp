// The on-disk cache of mesh collider SDF grids (sdf_grid_cache.h): baked on
// the first load, read back bit for bit on the second, baked again when the
// mesh, the resolution or the cache file itself changes.
#include <chrono>
#include <fstream>
#include <iostream>
#include <iterator>

#include <gtest/gtest.h>

#include "../common/mesh_fixtures.h"
#include "io/asset_file.h"
#include "io/cache_file.h"
#include "io/sdf_grid_cache.h"
#include "io/triangle_surface.h"

namespace vksim::test {
namespace {

TEST(SdfGridCache, SecondLoadReadsTheCache) {
    ScratchFolder folder;
    const std::filesystem::path obj = folder / "sphere.obj";
    writeTextFile(obj, makeIcosphere(0.5, 3).obj());
    const TriangleSurface sphere = loadTriangleSurface(obj);

    const CachedSdfGrid baked = loadOrBakeSdfGrid(sphere, obj, 32);
    std::cout << "[sdf cache] " << describeSdfGrid(obj.string(), baked) << "\n";
    EXPECT_FALSE(baked.fromCache);
    EXPECT_TRUE(baked.cacheNote.empty()) << baked.cacheNote;
    EXPECT_EQ(baked.cacheFile, folder / "sphere.obj.r32.sdfcache");

    const auto start = std::chrono::steady_clock::now();
    const CachedSdfGrid cached = loadOrBakeSdfGrid(sphere, obj, 32);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "[sdf cache] " << describeSdfGrid(obj.string(), cached) << fmt::format(" in {:.4f} s\n", seconds);
    ASSERT_TRUE(cached.fromCache);
    EXPECT_EQ(cached.grid->samples, baked.grid->samples);
    EXPECT_EQ(cached.grid->spacing, baked.grid->spacing);
    EXPECT_EQ(cached.grid->origin, baked.grid->origin);
    EXPECT_EQ(cached.grid->values, baked.grid->values);

    // Another resolution has its own file.
    EXPECT_FALSE(loadOrBakeSdfGrid(sphere, obj, 16).fromCache);
    EXPECT_TRUE(loadOrBakeSdfGrid(sphere, obj, 32).fromCache);
}

TEST(SdfGridCache, ChangedMeshOrDamagedCacheBakesAgain) {
    ScratchFolder folder;
    const std::filesystem::path obj = folder / "sphere.obj";
    writeTextFile(obj, makeIcosphere(0.5, 2).obj());
    loadOrBakeSdfGrid(loadTriangleSurface(obj), obj, 16);

    writeTextFile(obj, makeIcosphere(0.6, 2).obj());
    const CachedSdfGrid changed = loadOrBakeSdfGrid(loadTriangleSurface(obj), obj, 16);
    EXPECT_FALSE(changed.fromCache);
    EXPECT_EQ(changed.cacheNote, "cache not used: the mesh file changed");

    const std::filesystem::path cache = sdfCachePath(obj, 16);
    const std::string bytes = readAssetFile(cache).bytes;
    writeTextFile(cache, bytes.substr(0, bytes.size() - 5));
    const CachedSdfGrid truncated = loadOrBakeSdfGrid(loadTriangleSurface(obj), obj, 16);
    EXPECT_FALSE(truncated.fromCache);
    EXPECT_EQ(truncated.cacheNote, "cache not used: truncated or damaged");

    std::string flipped = readAssetFile(cache).bytes;
    flipped[flipped.size() - 2] ^= 0x40;
    writeTextFile(cache, flipped);
    EXPECT_EQ(loadOrBakeSdfGrid(loadTriangleSurface(obj), obj, 16).cacheNote, "cache not used: damaged (checksum)");
    EXPECT_TRUE(loadOrBakeSdfGrid(loadTriangleSurface(obj), obj, 16).fromCache);
}

// The header's grid layout is checked against the mesh: a flipped bit in the
// spacing or the origin is a damaged cache (it once loaded with a spacing of
// -0.0394), baked again and rewritten.
TEST(SdfGridCache, DamagedSpacingOrOriginBakesAgain) {
    ScratchFolder folder;
    const std::filesystem::path obj = folder / "sphere.obj";
    writeTextFile(obj, makeIcosphere(0.5, 2).obj());
    const TriangleSurface sphere = loadTriangleSurface(obj);
    const CachedSdfGrid baked = loadOrBakeSdfGrid(sphere, obj, 16);
    const std::filesystem::path cache = sdfCachePath(obj, 16);
    const std::string good = readAssetFile(cache).bytes;

    // magic 8, version 4, resolution 4, source size, mtime and hash 24, weld
    // tolerance 8, samples 12: the spacing is at 60, the origin at 68.
    constexpr std::size_t kSpacing = 60, kOrigin = 68;
    for (const auto& [byte, bit] : {std::pair{kSpacing + 7, 0x80}, std::pair{kSpacing + 3, 0x04},
                                    std::pair{kOrigin, 0x01}, std::pair{kOrigin + 16 + 6, 0x10}}) {
        std::string flipped = good;
        flipped[byte] = static_cast<char>(flipped[byte] ^ bit);
        writeTextFile(cache, flipped);
        const CachedSdfGrid reloaded = loadOrBakeSdfGrid(sphere, obj, 16);
        std::cout << "[sdf cache] byte " << byte << ": " << reloaded.cacheNote << "\n";
        EXPECT_FALSE(reloaded.fromCache) << "byte " << byte;
        EXPECT_TRUE(reloaded.cacheNote.starts_with("cache not used: damaged header")) << reloaded.cacheNote;
        EXPECT_EQ(reloaded.grid->spacing, baked.grid->spacing);
        EXPECT_EQ(reloaded.grid->origin, baked.grid->origin);
        EXPECT_EQ(readAssetFile(cache).bytes, good) << "not rewritten";
    }
    // A flipped bit elsewhere in the header (the modification time, which
    // is not compared) is caught by the checksum.
    std::string flipped = good;
    flipped[24] = static_cast<char>(flipped[24] ^ 0x01);
    writeTextFile(cache, flipped);
    EXPECT_EQ(loadOrBakeSdfGrid(sphere, obj, 16).cacheNote, "cache not used: damaged (checksum)");
    EXPECT_TRUE(loadOrBakeSdfGrid(sphere, obj, 16).fromCache);
}

TEST(SdfGridCache, UnwritableFolderStillBakes) {
    if (::geteuid() == 0) GTEST_SKIP() << "root writes anywhere";
    ScratchFolder folder;
    const std::filesystem::path obj = folder / "sphere.obj";
    writeTextFile(obj, makeIcosphere(0.5, 1).obj());
    std::filesystem::permissions(folder.path(), std::filesystem::perms::owner_write,
                                 std::filesystem::perm_options::remove);
    const CachedSdfGrid baked = loadOrBakeSdfGrid(loadTriangleSurface(obj), obj, 8);
    std::filesystem::permissions(folder.path(), std::filesystem::perms::owner_write,
                                 std::filesystem::perm_options::add);
    EXPECT_FALSE(baked.fromCache);
    EXPECT_NE(baked.cacheNote.find("cache not written: Permission denied"), std::string::npos) << baked.cacheNote;
}

}  // namespace
}  // namespace vksim::test

namespace vksim::test {
namespace {

// A cache name with a NUL in it would be written, by the C calls, to the
// name before the NUL: for "mesh.obj\0.sdf" on top of the mesh itself. The
// writer refuses such a name and leaves the file that shares its prefix as
// it was.
TEST(CacheFile, RefusesANameWithANulAndLeavesTheInputAlone) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "vksim_cache_nul_test";
    std::filesystem::create_directories(dir);
    const std::filesystem::path mesh = dir / "mesh.obj";
    const std::string original = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    writeCacheFile(mesh, original);
    std::string withNul = mesh.string();
    withNul.push_back('\0');
    withNul += ".sdf";
    const std::optional<std::string> failed = writeCacheFile(std::filesystem::path(withNul), "not a mesh");
    ASSERT_TRUE(failed.has_value());
    std::cout << "[cache] refused: " << *failed << "\n";
    std::ifstream in(mesh, std::ios::binary);
    const std::string after((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(after, original);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vksim::test
