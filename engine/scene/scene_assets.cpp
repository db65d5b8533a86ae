#include "scene/scene_assets.h"

#include <fmt/format.h>

#include "geometry/mesh_sdf_bake.h"
#include "geometry/signed_distance_grid.h"
#include "io/quoted_input.h"
#include "io/sdf_grid_cache.h"
#include "io/tetgen_io.h"

namespace vksim {

std::filesystem::path SceneAssets::resolve(std::string_view file) const {
    const std::filesystem::path path(file);
    return (path.is_absolute() ? path : folder_ / path).lexically_normal();
}

std::shared_ptr<const TriangleSurface> SceneAssets::surface(std::string_view file,
                                                            std::optional<double> weldTolerance,
                                                            std::optional<std::string_view> closedFor) {
    const std::filesystem::path path = resolve(file);
    auto& slot = surfaces_[{path.string(), weldTolerance}];
    if (!slot) {
        slot = std::make_shared<const TriangleSurface>(loadTriangleSurface(path, weldTolerance));
        log_.push_back(describeSurface(*slot));
    }
    // Every use needs at most two faces on an edge (cloth bending pairs the
    // two triangles of an edge); colliders and tetgen need a closed manifold.
    if (closedFor)
        requireClosedSurface(*slot, *closedFor);
    else
        requireManifoldEdges(*slot, "a cloth");
    return slot;
}

std::shared_ptr<const SignedDistanceGrid> SceneAssets::sdfGrid(std::string_view file,
                                                               std::optional<double> weldTolerance,
                                                               uint32_t resolution) {
    const std::filesystem::path path = resolve(file);
    auto& slot = grids_[{path.string(), weldTolerance, resolution}];
    if (!slot) {
        const std::shared_ptr<const TriangleSurface> closed = surface(file, weldTolerance, "a mesh collider");
        const CachedSdfGrid cached = loadOrBakeSdfGrid(*closed, path, resolution);
        log_.push_back(describeSdfGrid(clipInput(path.string()), cached));
        slot = cached.grid;
    }
    return slot;
}

std::size_t SceneAssets::countSdfGrid(std::string_view file, std::optional<double> weldTolerance,
                                      uint32_t resolution) {
    const std::filesystem::path path = resolve(file);
    auto [slot, added] = gridFloats_.try_emplace({path.string(), weldTolerance, resolution}, 0);
    if (added) {
        const std::shared_ptr<const TriangleSurface> closed = surface(file, weldTolerance, "a mesh collider");
        slot->second = meshSdfBufferFloats(sdfGridLayout(closed->positions, resolution).samples);
        gridFloatsTotal_ += slot->second;
    }
    return gridFloatsTotal_;
}

std::shared_ptr<const TetMesh> SceneAssets::tetGenFiles(std::string_view nodeFile, std::string_view eleFile) {
    const std::filesystem::path node = resolve(nodeFile), ele = resolve(eleFile);
    auto& slot = tetMeshes_[node.string() + "+" + ele.string()];
    if (!slot) {
        slot = std::make_shared<const TetMesh>(loadTetGen(node, ele));
        log_.push_back(
            describeTetMesh(fmt::format("{} + {}", clipInput(node.string()), clipInput(ele.string())), *slot));
    }
    return slot;
}

std::shared_ptr<const TetMesh> SceneAssets::tetrahedralize(std::string_view file, std::optional<double> weldTolerance,
                                                           const TetGenOptions& options) {
    const std::filesystem::path path = resolve(file);
    auto& slot = tetMeshes_[fmt::format("{} {} {}", path.string(), weldTolerance.value_or(-1.0),
                                        tetgenSwitches(options))];
    if (!slot) {
        const std::shared_ptr<const TriangleSurface> closed = surface(file, weldTolerance, "tetgen");
        const CachedTetMesh cached = loadOrTetrahedralize(*closed, path, options);
        log_.push_back(describeTetGenRun(clipInput(path.string()), cached, options));
        slot = cached.mesh;
    }
    return slot;
}

}  // namespace vksim
