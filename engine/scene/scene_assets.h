#pragma once
// The files a scene refers to (mesh objects, mesh colliders), loaded while
// the scene is read: paths are relative to the scene file's folder, each
// file is loaded once per scene however many objects use it, and every load
// adds a line to the log (mesh statistics; SDF grid baked or loaded from its
// cache). Errors are AssetErrors naming the file; the scene loader adds the
// scene file and the JSON pointer in front.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "geometry/signed_distance_grid.h"
#include "geometry/tet_mesh.h"
#include "io/tetgen_runner.h"
#include "io/triangle_surface.h"

namespace vksim {

class SceneAssets {
public:
    explicit SceneAssets(std::filesystem::path sceneFolder) : folder_(std::move(sceneFolder)) {}

    // `file` as written in the scene, resolved against the scene's folder.
    std::filesystem::path resolve(std::string_view file) const;

    // The welded surface of an OBJ file (weldTolerance: file units; none =
    // the default of triangle_surface.h). `closedFor` names the use when the
    // surface must be a closed manifold ("a mesh collider"); without it (a
    // cloth) it may be open, but no edge may have more than two faces.
    std::shared_ptr<const TriangleSurface> surface(std::string_view file, std::optional<double> weldTolerance,
                                                   std::optional<std::string_view> closedFor = std::nullopt);

    // The signed distance grid of a closed surface loaded by surface(), from
    // its cache file when valid (sdf_grid_cache.h).
    std::shared_ptr<const SignedDistanceGrid> sdfGrid(std::string_view file, std::optional<double> weldTolerance,
                                                      uint32_t resolution);

    // Counts the floats the grid that sdfGrid() would return takes in the
    // mesh colliders' buffer (signed_distance_grid.h), from its layout alone,
    // without baking it; returns the total of every distinct grid counted so
    // far, so that grids too big in all are refused before any is baked.
    std::size_t countSdfGrid(std::string_view file, std::optional<double> weldTolerance, uint32_t resolution);

    // Tetrahedra from TetGen files, checked (tetgen_io.h).
    std::shared_ptr<const TetMesh> tetGenFiles(std::string_view nodeFile, std::string_view eleFile);

    // Tetrahedra of a closed OBJ surface made by the tetgen program, from
    // the cache next to the mesh when valid (tetgen_runner.h).
    std::shared_ptr<const TetMesh> tetrahedralize(std::string_view file, std::optional<double> weldTolerance,
                                                  const TetGenOptions& options);

    // One line per file loaded or baked, in order.
    const std::vector<std::string>& log() const { return log_; }

private:
    using SurfaceKey = std::tuple<std::string, std::optional<double>>;
    std::filesystem::path folder_;
    std::map<SurfaceKey, std::shared_ptr<const TriangleSurface>> surfaces_;
    using GridKey = std::tuple<std::string, std::optional<double>, uint32_t>;
    std::map<GridKey, std::shared_ptr<const SignedDistanceGrid>> grids_;
    std::map<GridKey, std::size_t> gridFloats_;  // counted by countSdfGrid
    std::size_t gridFloatsTotal_ = 0;
    std::map<std::string, std::shared_ptr<const TetMesh>> tetMeshes_;  // by files and switches
    std::vector<std::string> log_;
};

}  // namespace vksim
