// Fuzz target: TetGen .node and .ele text (tetgen_io.h). The input holds
// both, the .node text first, separated by the first NUL byte (neither file
// format has one); without a NUL the .ele text is empty. Bad input must end
// in an AssetError of one line; anything else escaping is a finding, and so
// is a mesh the loader accepts that breaks what tetgen_io.h promises: no
// index out of range, no non-finite point, no inverted or flat tetrahedron
// (validateTets throws std::invalid_argument, which is not an AssetError).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <glm/glm.hpp>

#include "fuzz_checks.h"
#include "geometry/tet_mesh.h"
#include "io/asset_error.h"
#include "io/tetgen_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t split = input.find('\0');
    const std::string_view node = input.substr(0, split);
    const std::string_view ele = split == std::string_view::npos ? std::string_view() : input.substr(split + 1);
    try {
        const vksim::TetMesh mesh = vksim::parseTetGen(node, "fuzz.node", ele, "fuzz.ele");
        for (const glm::dvec3& p : mesh.positions)
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) vksim::fuzz::fail("accepted a non-finite point", "fuzz.node");
        vksim::validateTets(mesh.positions, mesh.tets, "fuzz.ele");
        if (mesh.surface.size() % 3 != 0) vksim::fuzz::fail("boundary is not whole triangles", "fuzz.ele");
        for (uint32_t index : mesh.surface)
            if (index >= mesh.positions.size()) vksim::fuzz::fail("boundary index out of range", "fuzz.ele");
    } catch (const vksim::AssetError& error) {
        vksim::fuzz::requireOneLine(error.what());
    }
    return 0;
}
