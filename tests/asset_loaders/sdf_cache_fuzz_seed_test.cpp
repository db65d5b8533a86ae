// The seed of the SDF cache fuzz target (tests/fuzz/fuzz_sdf_cache.cpp) must
// be a cache the reader accepts for the mesh and resolution that target
// reads against: a stale seed (after a format change) would leave the fuzzer
// stuck at the header checks, with nothing failing. Rewrite it with
//   VKSIM_UPDATE_FUZZ_SEEDS=1 build/tests/vksim_asset_tests --gtest_filter='SdfCacheFuzzSeed.*'
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "../common/mesh_fixtures.h"
#include "geometry/mesh_sdf_bake.h"
#include "io/asset_file.h"
#include "io/sdf_grid_cache.h"
#include "io/triangle_surface.h"
#include "io/write_file.h"

namespace vksim::test {
namespace {

TEST(SdfCacheFuzzSeed, IsAValidCacheOfTheTargetsMesh) {
    constexpr uint32_t kResolution = 8;  // as fuzz_sdf_cache.cpp
    const std::filesystem::path seed =
        std::filesystem::path(VKSIM_SOURCE_DIR) / "tests/fuzz/seeds/sdf_cache/tetrahedron.r8.sdfcache";
    const TriangleSurface surface = loadTriangleSurface(meshCorpus("tetrahedron.obj"));
    if (std::getenv("VKSIM_UPDATE_FUZZ_SEEDS")) {
        const SignedDistanceGrid grid = bakeSignedDistanceGrid(surface.positions, surface.triangles, kResolution);
        writeWholeFile(seed, encodeSdfGridCache(surface, kResolution, grid));
    }
    std::string whyNot;
    EXPECT_TRUE(decodeSdfGridCache(readAssetFile(seed).bytes, surface, kResolution, whyNot))
        << seed << ": " << whyNot << "; rewrite it as this test's file says";
}

}  // namespace
}  // namespace vksim::test
