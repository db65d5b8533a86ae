#pragma once
// The mass-spring solver's settings (scene key "springs" under "solver"),
// what a cloth sets for it (its springs), and what every part of vksim says
// about the integrators (docs/physics.md §9) in one place: their display
// names, which of them minimise the implicit Euler objective F, and why
// dihedral bending cannot go with those. The scene loader, the solver, its
// CPU reference and the viewer all ask here.
// A settings header: plain data that the scene (scene/scene.h) holds, so
// it includes nothing of the engine's (docs/architecture.md, "Layers").
#include <cstdint>
#include <optional>

namespace vksim {

// The mass-spring solver's settings (docs/physics.md §9), shared by every
// "method": "springs" object: they form one system.
enum class SpringIntegrator {
    ExplicitEuler,
    SymplecticEuler,
    PositionVerlet,
    VelocityVerlet,
    Midpoint,
    ImplicitEuler,  // Newton on F, block-Jacobi/Chebyshev linear solves
    Vbd,            // vertex block descent on F (Chen et al. 2024)
};

struct SpringSettings {
    SpringIntegrator integrator = SpringIntegrator::SymplecticEuler;
    uint32_t newtonIterations = 3;   // per substep
    uint32_t jacobiIterations = 40;  // per Newton iteration
    bool chebyshev = true;           // Chebyshev acceleration of the Jacobi iterations
    bool lineSearch = true;          // backtracking on F along the Newton direction
    uint32_t vbdIterations = 10;     // per substep, each a sweep over every colour
    bool operator==(const SpringSettings&) const = default;
};

// How a mass-spring cloth bends (docs/physics.md §9.5).
enum class SpringBending {
    None,
    Springs,    // springs across interior edges (mesh) or skipping a vertex (grid)
    Dihedral,   // Bridson et al. 2003 forces; explicit integrators only
    Quadratic,  // Bergou et al. 2006 constant Hessian, for a flat rest shape
};

// Which springs a grid cloth gets (a mesh cloth always gets its edges).
enum class SpringTopology {
    Mesh,  // the lecture's builder: one spring per edge, bending springs across interior edges
    Grid,  // structural, shear and skip-one bending families
};

// The springs of a "method": "springs" cloth.
struct SpringClothParams {
    SpringTopology topology = SpringTopology::Grid;  // grids; mesh cloths always use Mesh
    uint32_t shearDiagonals = 2;                     // grid: 0, 1 or 2 diagonals per cell
    float stretch = 2000.0f;                         // k of stretch (edge, structural) springs [N/m]
    float shear = 500.0f;                            // k of shear springs [N/m]
    SpringBending bending = SpringBending::Springs;
    float bendingStiffness = 50.0f;  // springs: [N/m]; dihedral: [N/m] (times the hinge scale); quadratic: [N m]
    float drag = 0.0f;               // air drag sigma [kg/s], f = -sigma v per particle
    float compressionScale = 1.0f;   // stiffness factor of compressed springs, in [0, 1]
    float slack = 0.0f;              // compressed by less than this fraction of L: no force
    // The object's own explicit integrator, in place of SpringSettings::
    // integrator (unset: the solver's). One of the five explicit ones: each
    // advances its own particles, so objects side by side may differ; the
    // implicit methods solve every object in one system and cannot.
    std::optional<SpringIntegrator> integrator;
};

// "explicit Euler", ..., "vertex block descent": for messages, the viewer
// and test output.
const char* springIntegratorName(SpringIntegrator integrator);

// Implicit Euler (Newton) and vertex block descent minimise F; the others
// integrate forces explicitly.
constexpr bool minimisesEnergy(SpringIntegrator integrator) {
    return integrator == SpringIntegrator::ImplicitEuler || integrator == SpringIntegrator::Vbd;
}

// What steps an object with `params`: its own integrator, else the solver's.
inline SpringIntegrator objectIntegrator(const SpringSettings& settings, const SpringClothParams& params) {
    return params.integrator.value_or(settings.integrator);
}

// The integrator hook of the shared predict and update-velocity stages
// (kIntegrator* in shaders/shared/sim_types.h) that advances a mass-spring
// range: the explicit integrators' own rules; for implicit Euler and VBD the
// plain prediction y = x + h v + h^2 g that PBD and PD use.
uint32_t stageIntegrator(SpringIntegrator integrator);

// Dihedral forces (Bridson et al. 2003) have no energy, so an integrator
// that minimises F cannot take them (§9.5).
inline constexpr const char* kDihedralHasNoEnergy =
    "dihedral bending has no energy for implicit Euler or vertex block descent to minimise: "
    "use springs or quadratic bending, or an explicit integrator";

// An object's own integrator next to a solver-wide implicit one (the
// implicit methods solve every object's springs in one system).
inline constexpr const char* kObjectIntegratorNeedsExplicitSolver =
    "an object's own integrator must be explicit, and so must the solver's "
    "(solver.springs.integrator): "
    "implicit Euler and vertex block descent solve every mass-spring object "
    "together";

}  // namespace vksim
