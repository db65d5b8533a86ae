#pragma once
// The projective dynamics solver's settings (scene key "pd" under "solver")
// and what its objects set for it: each element family's stiffness and range.
// A settings header: plain data that the scene (scene/scene.h) holds, so
// it includes nothing of the engine's (docs/architecture.md, "Layers").
#include <cstdint>

namespace vksim {

// How the Jacobi iterations of a PD global step are dispatched (docs/physics.md §5).
enum class PdJacobiPath {
    Auto,          // Workgroup up to kPdOneWorkgroupRows PD particles, else PerIteration
    Workgroup,     // all J iterations in one dispatch of one workgroup
    PerIteration,  // one dispatch per iteration
    Tiled,         // one dispatch per iteration, each workgroup's neighbours from a tile in shared memory
};

// Projective dynamics settings (docs/physics.md §5), shared by every "method": "pd"
// object: they form one global system. Each substep runs localIterations
// local/global iterations, each a local step and jacobiIterations Jacobi
// iterations of the global step.
struct PdSettings {
    PdJacobiPath jacobiPath = PdJacobiPath::Auto;
    uint32_t localIterations = 10;   // L per substep
    uint32_t jacobiIterations = 20;  // J per global step
    bool chebyshev = true;           // Chebyshev acceleration (Wang 2015); false: relaxed Jacobi
    float spectralRadius = 0.0f;     // rho of the relaxed Jacobi iteration; 0 = from the estimated spectrum
    float relaxation = 0.0f;         // gamma of each Jacobi update; 0 = 2 / (mu_min + mu_max) (pd_system.h)
    float collisionWeight = 1000.0f;  // weight of a collision projection, in units of the particle's m/h^2
    bool operator==(const PdSettings&) const = default;
};

// One family of projective dynamics elements of an object: its stiffness
// (each element's weight is this times its rest length, area or volume
// measure, see README "Scene files") and, for strain and volume, the range
// the singular values or the volume ratio are clamped to.
struct PdParams {
    float stiffness = 1.0f;
    float rangeMin = 1.0f;
    float rangeMax = 1.0f;
    bool enabled = true;
};

// The element families of a cloth simulated with projective dynamics.
struct PdClothParams {
    PdParams stretch{.stiffness = 2000.0f};                  // springs on structural and shear edges [N/m]
    PdParams strain{.stiffness = 100.0f, .enabled = false};  // triangle strain [N/m]
    PdParams bending{.stiffness = 1e-3f};                    // isometric bending stencil [N m]
    PdParams attachment{.stiffness = 1000.0f};               // pins as closeness constraints [N/m]
};

}  // namespace vksim
