#pragma once
// Tetrahedralising a closed OBJ surface with the `tetgen` program
// (https://wias-berlin.de/software/tetgen/; Debian package "tetgen"), run as
// a separate process: TetGen's library is AGPL, and a program keeps its
// crashes out of ours. The surface goes to it as an .off file in a temporary
// folder; its .node/.ele output is read back by tetgen_io.h and checked like
// any other TetGen file.
//
// Switches: -p (the input is a surface to fill), -z (number from 0), -Q
// (quiet), plus the quality options: -q<ratio>[/<angle>] bounds the
// radius-edge ratio (and the smallest dihedral angle) of the tetrahedra by
// adding points, -a<volume> bounds their volume (in the file's units cubed).
//
// It runs for at most timeoutSeconds (300 s unless a caller says otherwise):
// past that it is killed, and the error says so. While it runs, stderr gets
// a line when it starts ("tetgen: meshing assets/x.obj (limit 300 s)") and
// one every progressSeconds ("tetgen: meshing assets/x.obj (12 s, limit
// 300 s)"): a first load can take minutes, and silence looks like a hang.
// SIGINT or SIGTERM meanwhile ends it and removes its folder
// (io/child_process.h: StoppedBySignal).
//
// The result is cached next to the mesh as "<mesh>.tet-<8 hex>.node" and
// ".ele" (the hex is a hash of the switches and the weld tolerance); the
// first line of the .node file records the source's size, modification time
// and hash, the switches and the weld tolerance, and a cache that does not
// match them is rebuilt.
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "geometry/tet_mesh.h"
#include "io/triangle_surface.h"

namespace vksim {

struct TetGenOptions {
    std::optional<double> radiusEdgeRatio;  // -q: > 1 (TetGen's suggestion: 1.2 to 2); none: no quality bound
    std::optional<double> minDihedralDegrees;  // with -q: in (0, 30); none: TetGen's default
    std::optional<double> maxVolume;        // -a: > 0, file units^3; none: no bound
    std::string program = "tetgen";         // looked up in PATH
    double timeoutSeconds = 300.0;
    double progressSeconds = 5.0;
    std::ostream* progress = nullptr;  // the start and progress lines; none: std::cerr
};

// "pzQq1.4/15a0.001" (no leading dash).
std::string tetgenSwitches(const TetGenOptions& options);

// Runs the program on `surface` (closed: requireClosedSurface). Throws
// AssetError naming `surface.file`: "tetgen: program not found in PATH ..."
// when it is not installed, "did not finish within 300 s" at the time
// limit, else the exit status or signal and the last line it printed;
// StoppedBySignal on SIGINT or SIGTERM.
TetMesh runTetGen(const TriangleSurface& surface, const TetGenOptions& options);

struct CachedTetMesh {
    std::shared_ptr<const TetMesh> mesh;
    std::filesystem::path nodeFile, eleFile;
    bool fromCache = false;
    double seconds = 0.0;   // running tetgen, when it ran
    std::string cacheNote;  // why the cache was not used or not written, if it matters
};

// The tetrahedra of `surface` (loaded from `meshFile`), from the cache when
// it matches, else from tetgen (then cached).
CachedTetMesh loadOrTetrahedralize(const TriangleSurface& surface, const std::filesystem::path& meshFile,
                                   const TetGenOptions& options);

// One line: "<mesh>: tetgen -pzQq1.4 ran in 0.31 s, cached in <node>" or
// "... loaded from cache <node>", then the mesh's description.
std::string describeTetGenRun(const std::string& meshFile, const CachedTetMesh& cached,
                              const TetGenOptions& options);

}  // namespace vksim
