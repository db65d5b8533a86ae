#pragma once
// The settings of the vertex block descent solver of tetrahedral solids
// (scene key "vbd" under "solver"; docs/physics.md §16). A settings header:
// plain data that the scene (scene/scene.h) holds, so it includes nothing
// of the engine's (docs/architecture.md, "Layers").
#include <cstdint>

namespace vksim {

// Shared by every "method": "vbd" solid.
struct VbdSettings {
    uint32_t iterations = 10;  // per substep, each a sweep over every vertex colour
    bool operator==(const VbdSettings&) const = default;
};

}  // namespace vksim
