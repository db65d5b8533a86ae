#pragma once
// Errors in a file the user gave us (an OBJ mesh, TetGen .node/.ele files, a
// cache that cannot be written): what() is one line that starts with the
// file's path and names the element and the problem, e.g.
//
//   assets/x.obj: line 12: face 7 uses vertex 99, but the file has 40 vertices
//   assets/x.ele: line 5: tetrahedron 3 (nodes 0, 2, 1, 3) is inverted (volume -0.0417)
//
// The scene loader prefixes the scene file and the JSON pointer that named it.
#include <stdexcept>

namespace vksim {

class AssetError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace vksim
