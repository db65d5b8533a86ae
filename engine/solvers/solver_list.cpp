#include "solvers/solver_list.h"

#include "solvers/pbd/pbd_solver.h"
#include "solvers/pd/pd_solver.h"
#include "solvers/sim_model.h"
#include "solvers/springs/spring_solver.h"
#include "solvers/vbd/vbd_solver.h"

namespace vksim {

std::vector<std::unique_ptr<Solver>> makeParticleSolvers(const VulkanContext& ctx, const SimModel& model,
                                                         ParticleStore& particles, ColliderSet& colliders,
                                                         const SolverSettings& settings,
                                                         const ContactModel* contacts) {
    std::vector<std::unique_ptr<Solver>> solvers;
    solvers.push_back(std::make_unique<PdSolver>(ctx, model, particles, colliders));
    solvers.push_back(
        std::make_unique<PbdSolver>(ctx, model, particles, colliders, settings.pbd.iterations, contacts));
    solvers.push_back(std::make_unique<SpringSolver>(ctx, model, particles, contacts));
    solvers.push_back(std::make_unique<VbdSolver>(ctx, model, particles, colliders));
    return solvers;
}

}  // namespace vksim
