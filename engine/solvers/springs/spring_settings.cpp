#include "solvers/springs/spring_settings.h"

#include "shaders/shared/sim_types.h"

namespace vksim {

const char* springIntegratorName(SpringIntegrator integrator) {
    switch (integrator) {
    case SpringIntegrator::ExplicitEuler: return "explicit Euler";
    case SpringIntegrator::SymplecticEuler: return "symplectic Euler";
    case SpringIntegrator::PositionVerlet: return "position Verlet";
    case SpringIntegrator::VelocityVerlet: return "velocity Verlet";
    case SpringIntegrator::Midpoint: return "midpoint";
    case SpringIntegrator::ImplicitEuler: return "implicit Euler";
    case SpringIntegrator::Vbd: return "vertex block descent";
    }
    return "?";
}

uint32_t stageIntegrator(SpringIntegrator integrator) {
    switch (integrator) {
    case SpringIntegrator::ExplicitEuler: return gpu::kIntegratorExplicitEuler;
    case SpringIntegrator::SymplecticEuler: return gpu::kIntegratorForceSymplecticEuler;
    case SpringIntegrator::PositionVerlet: return gpu::kIntegratorPositionVerlet;
    case SpringIntegrator::VelocityVerlet: return gpu::kIntegratorVelocityVerlet;
    case SpringIntegrator::Midpoint: return gpu::kIntegratorMidpoint;
    case SpringIntegrator::ImplicitEuler:
    case SpringIntegrator::Vbd: break;
    }
    return gpu::kIntegratorSymplecticEuler;
}

}  // namespace vksim
