#pragma once
// Reads a scene file (README.md, section "Scene files") into a validated Scene. Anything
// wrong with the file is the user's to fix, so it is reported as a SceneError
// whose what() is one line naming the file and the exact value:
//
//   scenes/x.json: /objects/0/resolution/1: expected an integer in [2, 4096], got 1
//   scenes/x.json: line 12, column 5: JSON syntax error: ...
//   missing.json: cannot open file: No such file or directory
#include <filesystem>
#include <stdexcept>
#include <string_view>

#include "scene/scene.h"

namespace vksim {

class SceneError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Reads and validates `file`; Scene::path is set to it.
Scene loadScene(const std::filesystem::path& file);

// The text of a scene file, with the loader's checks of the file itself
// (SceneError naming it: missing, a directory, too large).
std::string readSceneText(const std::filesystem::path& file);

// The same for JSON text already in memory; `sourceName` is what messages
// (and Scene::path) call it, and the scene name defaults to its stem.
Scene parseScene(std::string_view jsonText, const std::filesystem::path& sourceName);

// A "solver" block's JSON object (the scene format's keys, docs/scene-format.md)
// over `base`: the keys it has replace theirs, the others keep base's. The
// live edit of World::setSettings from Python. Throws SceneError,
// "<sourceName>: /solver/<key>: expected ...", for anything the loader refuses.
SolverSettings parseSolverSettings(std::string_view jsonText, const SolverSettings& base, std::string_view sourceName);

}  // namespace vksim
