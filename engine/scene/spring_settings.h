#pragma once
// What every part of vksim says about the mass-spring integrators
// (docs/physics.md §9) in one place: their display names, which of them
// minimise the implicit Euler objective F, and why dihedral bending cannot
// go with those. The scene loader, the solver, its CPU reference and the
// viewer all ask here.
#include <cstdint>

#include "scene/scene.h"

namespace vksim {

// "explicit Euler", ..., "vertex block descent": for messages, the viewer
// and test output.
const char* springIntegratorName(SpringIntegrator integrator);

// Implicit Euler (Newton) and vertex block descent minimise F; the others
// integrate forces explicitly.
constexpr bool minimisesEnergy(SpringIntegrator integrator) {
    return integrator == SpringIntegrator::ImplicitEuler || integrator == SpringIntegrator::Vbd;
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

}  // namespace vksim
