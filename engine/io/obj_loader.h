#pragma once
// Wavefront OBJ meshes through tinyobjloader, with the checks tinyobjloader
// leaves out. tinyobjloader reads a non-numeric coordinate as 0, keeps an
// out-of-range face index with only a warning and drops faces of fewer than 3
// vertices; here each of those is an AssetError naming the file, the line and
// the element ("assets/x.obj: line 12: face 7 uses vertex 99, but the file has
// 40 vertices"). Only geometry is read: `v` positions and `f` faces (texture
// coordinates, normals, groups and materials are ignored, no .mtl is opened).
// The positions are as in the file: welding and validation of the surface are
// triangle_surface.h's job.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "io/asset_file.h"

namespace vksim {

struct ObjMesh {
    std::vector<glm::dvec3> positions;    // one per `v` line, in file order
    std::vector<uint32_t> vertexLines;    // the line (1-based) of each vertex
    // 3 vertex indices (0-based, into positions) per triangle. A polygon of
    // n vertices becomes the fan (0, k, k+1) around its first vertex, which is
    // right for the convex polygons exporters write; a polygon whose fan would
    // fold over (non-convex, and not star-shaped from its first vertex, or
    // winding more than once) is an AssetError naming the face.
    std::vector<uint32_t> triangles;
    std::vector<uint32_t> triangleFaces;  // the face (0-based, in file order) each triangle comes from
    std::vector<uint32_t> faceLines;      // the line (1-based) of each face
    SourceFingerprint source;
};

// Reads and checks `file`. Throws AssetError.
ObjMesh loadObj(const std::filesystem::path& file);

// The same for OBJ text in memory; `sourceName` starts every message.
ObjMesh parseObj(std::string_view text, const std::string& sourceName);

}  // namespace vksim
