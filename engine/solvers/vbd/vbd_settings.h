#pragma once
// The settings of the vertex block descent solver of tetrahedral solids
// (scene key "vbd" under "solver"; docs/physics.md §16). A settings header:
// plain data that the scene (scene/scene.h) holds, so it includes nothing
// of the engine's (docs/architecture.md, "Layers").
#include <cstdint>

namespace vksim {

// Where each substep's sweeps start (docs/physics.md §16, "Initial guess").
enum class VbdInitialGuess : uint8_t {
    Adaptive,  // x + h v + h^2 a~, a~ the last step's acceleration along g clamped to [0, |g|]
    Inertial,  // y = x + h v + h^2 g
};

// Shared by every "method": "vbd" solid.
struct VbdSettings {
    uint32_t iterations = 10;  // per substep, each a sweep over every vertex colour
    VbdInitialGuess initialGuess = VbdInitialGuess::Adaptive;
    bool operator==(const VbdSettings&) const = default;
};

}  // namespace vksim
