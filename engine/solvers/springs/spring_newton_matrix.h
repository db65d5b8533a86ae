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

#include <glm/glm.hpp>

#include "linear/block_sparse.h"
#include "solvers/springs/spring_model.h"

namespace vksim {

// `x` and `inverseMasses` are indexed by global particle.
linear::BlockSparseMatrix springNewtonMatrix(const MsModel& ms, std::span<const glm::dvec3> x,
                                             std::span<const double> inverseMasses, double h);

}  // namespace vksim
