#pragma once
// The one list of the particle solvers: adding a solver adds its line here
// (docs/architecture.md, "Adding a solver: checklist"). Stepper owns what
// this builds; typed access goes through Stepper::solver<S>().
#include <memory>
#include <vector>

namespace vksim {

class ColliderSet;
class ParticleStore;
struct ContactModel;
class Solver;
class VulkanContext;
struct SimModel;
struct SolverSettings;

// Every particle solver, in step order (a solver without objects has an
// empty range and records nothing). `settings` are the first frame's.
// `contacts`: the model of the stepper's contact stage (ContactStage::model),
// null without contacts.
std::vector<std::unique_ptr<Solver>> makeParticleSolvers(const VulkanContext& ctx, const SimModel& model,
                                                         ParticleStore& particles, ColliderSet& colliders,
                                                         const SolverSettings& settings,
                                                         const ContactModel* contacts);

}  // namespace vksim
