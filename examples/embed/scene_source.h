#pragma once
// Where the example's scene comes from: a vksim scene file, or a small cloth
// over a ball built in code (what an application with its own level format
// would do).
#include <optional>
#include <string>

#include "scene/scene.h"

// Throws SceneSourceError with a one-line message for a missing or bad file.
vksim::Scene loadSceneSource(const std::optional<std::string>& file);

struct SceneSourceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
