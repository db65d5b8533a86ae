// Fuzz target: the SDF grid cache reader (sdf_grid_cache.h) on the bytes of
// a cache file. A cache is only ever read for one mesh at one resolution, so
// the target reads every input as the cache of tests/meshes/tetrahedron.obj
// at resolution 8; the seed corpus holds a valid one
// (tests/fuzz/seeds/sdf_cache/). A damaged cache must be refused, never
// crash; a cache the reader accepts must be exactly the grid that mesh
// gives (its layout, and one value per sample), since it goes to the GPU
// unchecked.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_checks.h"
#include "geometry/mesh_sdf_bake.h"
#include "io/sdf_grid_cache.h"
#include "io/triangle_surface.h"

namespace {

constexpr uint32_t kResolution = 8;

const vksim::TriangleSurface& tetrahedron() {
    static const vksim::TriangleSurface surface =
        vksim::loadTriangleSurface(VKSIM_SOURCE_DIR "/tests/meshes/tetrahedron.obj");
    return surface;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const vksim::TriangleSurface& surface = tetrahedron();
    std::string whyNot;
    const auto grid = vksim::decodeSdfGridCache(bytes, surface, kResolution, whyNot);
    if (!grid) {
        vksim::fuzz::requireOneLine(whyNot);
        return 0;
    }
    const vksim::SignedDistanceGrid layout = vksim::sdfGridLayout(surface.positions, kResolution);
    if (grid->samples != layout.samples || !(grid->spacing == layout.spacing) || !(grid->origin == layout.origin))
        vksim::fuzz::fail("accepted a cache whose layout is not the mesh's", "sdf cache");
    if (grid->values.size() != std::size_t(layout.samples.x) * layout.samples.y * layout.samples.z)
        vksim::fuzz::fail("accepted a cache with the wrong number of values", "sdf cache");
    return 0;
}
