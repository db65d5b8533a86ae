#pragma once
// An object's "tethers" block (docs/scene-format.md; docs/physics.md §1,
// "Tethers"): long-range attachments of every free particle to its nearest
// pinned particle. Plain data: the scene holds it, the model builders read it.
namespace vksim {

// How a tether's rest length and its anchor are measured.
enum class TetherMode {
    Off,        // no tethers
    Euclidean,  // straight-line distance in the rest shape
    Geodesic,   // shortest path along the mesh's edges in the rest shape
};

struct TetherParams {
    TetherMode mode = TetherMode::Off;
    // The fraction a particle may go past its rest distance from its anchor
    // before the tether pulls: the tether's length is (1 + slack) d.
    float slack = 0.0f;
    bool operator==(const TetherParams&) const = default;
};

}  // namespace vksim
