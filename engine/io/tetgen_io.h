#pragma once
// TetGen's tetrahedral mesh files (https://wias-berlin.de/software/tetgen/fformats.html):
//
//   .node   <points> 3 <attributes> <boundary markers 0|1>
//           <index> <x> <y> <z> [attributes] [marker]      (one line per point)
//   .ele    <tetrahedra> <4|10> <attributes>
//           <index> <n1> <n2> <n3> <n4> [6 more nodes] [attributes]
//
// '#' starts a comment; indices start at 0 or 1 (the first point decides)
// and count up by one. Only the 4 corners of 10-node tetrahedra are used.
// Everything is checked, and every problem is an AssetError naming the file,
// the line and the element: a truncated or garbage file, a non-finite
// coordinate, a node index out of range, an inverted tetrahedron
// (det[b-a, c-a, d-a] < 0, the convention of TetGen and of tet_mesh.h) or a
// flat one (|volume| <= 1e-12 * longest edge^3), a face shared by three.
// Points no tetrahedron uses are dropped (they would have no mass).
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "geometry/tet_mesh.h"

namespace vksim {

// The mesh with its boundary (TetMesh::surface) computed.
TetMesh loadTetGen(const std::filesystem::path& nodeFile, const std::filesystem::path& eleFile);
TetMesh parseTetGen(std::string_view nodeText, const std::string& nodeName, std::string_view eleText,
                    const std::string& eleName);

// The mesh in TetGen's formats, numbered from 0, coordinates printed
// exactly (17 significant digits); `comment` (one line) heads both files.
std::string formatTetGenNode(const TetMesh& mesh, std::string_view comment);
std::string formatTetGenEle(const TetMesh& mesh, std::string_view comment);

// One line: "<file>: 412 points, 1290 tetrahedra, 536 boundary triangles,
// volume 0.0327, tetrahedron volumes 1.2e-06 .. 9.8e-05".
std::string describeTetMesh(const std::string& file, const TetMesh& mesh);

}  // namespace vksim
