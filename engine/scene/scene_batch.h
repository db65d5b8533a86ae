#pragma once
// A batch (scene/scene_copies.h) from a scene document whose copies may
// each take their own values of some of its keys (`vary`): what
// vksim.Batch builds. A key under /colliders, /bodies, /camera or /name
// cannot vary (the copies share those), nor one under /solver but
// /solver/gravity, which each copy's objects fall by (ObjectRange::gravity).
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "scene/scene_copies.h"

namespace vksim {

// One varied key: a JSON pointer into the scene document and one value per copy.
struct BatchVary {
    std::string pointer;
    std::vector<nlohmann::json> values;
};

// The copies as one scene. `jsonText` is the scene document, `sourceName`
// names it (and its folder finds its meshes), as parseScene's. Throws
// SceneError, one line: the loader's message for the scene, or for a copy's
// (prefixed "batch copy c: ": a varied value it refuses), a count below 1
// or above kMaxBatchCopies, a pointer that is not one, that names a shared
// key or a place the scene does not have, a number of values other than
// `count`, and replicateScene's refusals.
SceneBatch buildSceneBatch(std::string_view jsonText, const std::filesystem::path& sourceName, uint32_t count,
                           const std::vector<BatchVary>& vary);

}  // namespace vksim
