// Fuzz target: OBJ text through everything a mesh file goes through before a
// simulation uses it: parsing (obj_loader.h), welding and surface checks
// (triangle_surface.h) and, for a closed surface, the signed distance bake
// of mesh colliders at the coarsest resolution. Bad input must end in an
// AssetError of one line; anything else escaping is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_checks.h"
#include "geometry/mesh_sdf_bake.h"
#include "io/asset_error.h"
#include "io/obj_loader.h"
#include "io/triangle_surface.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const vksim::TriangleSurface surface = vksim::makeTriangleSurface(vksim::parseObj(text, "fuzz.obj"), "fuzz.obj");
        vksim::requireManifoldEdges(surface, "a cloth");
        if (!surface.stats.closed()) return 0;
        vksim::requireClosedSurface(surface, "a mesh collider");
        const vksim::SignedDistanceGrid grid =
            vksim::bakeSignedDistanceGrid(surface.positions, surface.triangles, vksim::kMinSdfResolution);
        if (grid.values.size() != std::size_t(grid.samples.x) * grid.samples.y * grid.samples.z)
            vksim::fuzz::fail("baked grid has the wrong number of values", "fuzz.obj");
    } catch (const vksim::AssetError& error) {
        vksim::fuzz::requireOneLine(error.what());
    }
    return 0;
}
