#pragma once
// The matrix of one Newton step of implicit Euler on a mass-spring model
// (docs/physics.md §9.3), in double on the CPU:
//   A = M/h^2 + sigma/h + H(x),   H: the clamped spring Hessian blocks and Q (x) I3,
// over the model's spring range in block rows (local indices). A pinned
// particle's row and column are the identity (its dx is 0, so its
// couplings drop out); the GPU's assembly pass (springs/newton_assemble.comp)
// writes the same matrix in float. The CPU reference solves it exactly; the
// GPU solver estimates the Jacobi spectrum of it at the rest shape.
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "linear/block_sparse.h"
#include "solvers/springs/spring_model.h"
#include "state/particle_range.h"

namespace vksim {

// `x` and `inverseMasses` are indexed by global particle.
linear::BlockSparseMatrix springNewtonMatrix(const MsModel& ms, std::span<const glm::dvec3> x,
                                             std::span<const double> inverseMasses, double h);

// Per batch copy (a scene's world is one), the spectrum of D^-1 A that
// block Jacobi's weights come from (docs/physics.md §9.7): A is the Newton
// matrix at the rest shape `rest` (xyz; w the inverse mass; by global
// particle), where every spring is at its rest length (no geometric term),
// and `copies` are each copy's rows, local to the range. Lanczos runs on the
// copy's block alone, numbered from 0 as a world of that copy alone numbers
// it, so the estimate is that world's, bit for bit; mu_max is then raised to
// the bound that holds at every state, the copy's largest stencil.
std::vector<linear::JacobiSpectrum> springCopySpectra(const MsModel& ms, std::span<const glm::vec4> rest, double h,
                                                      std::span<const ParticleRange> copies);

}  // namespace vksim
