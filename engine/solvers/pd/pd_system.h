#pragma once
// The global step of projective dynamics (docs/physics.md §5), set up once per
// topology on the CPU:
//
//   (M/h^2 + L) q = M/h^2 s + sum_i w_i S_i^T A_i^T B_i p_i,
//   L = sum_i w_i S_i^T A_i^T A_i S_i.
//
// Every element here acts on the x, y and z coordinates alike (A_i S_i q is
// a linear combination of its vertices, sum_k a_k q_k^T with a_k in R^d), so
// the system decouples into one scalar N x N matrix shared by the three
// coordinates: L_kl += w_i a_k . a_l. L does not depend on h; the diagonal
// M/h^2 + L_ii is formed per step from the masses (and the active collision
// projections), so a change of time step needs no new matrix.
#include <cstdint>
#include <span>
#include <vector>

#include "linear/jacobi_spectrum.h"
#include "solvers/pd/pd_model.h"

namespace vksim {

// Fills pd.slots, pd.rows (masses from the inverse masses in `positions`;
// 0 for pinned particles), pd.offDiagonal and pd.gatherSlots from the
// elements and pd.firstParticle / pd.particleCount. Throws
// std::invalid_argument when an element names a particle outside the PD range.
void buildPdSystem(PdModel& pd, const std::vector<glm::vec4>& positions);

// The system's bandwidth: the farthest column of an off-diagonal entry from
// its row, in particles (a w-wide grid cloth: w + 1). The tiled Jacobi
// pass's window reaches this far on each side of its rows.
uint32_t pdBandwidth(const PdModel& pd);

// L_rr of PD row r: the attachments' weights minus the sum of the row's
// (float) off-diagonal entries, summed in double, so that the rows of the
// translation-invariant part sum to exactly zero (PdRow in pd_types.h).
double pdLaplacianDiagonal(const PdModel& pd, uint32_t row);

// The scalar L of a model as a dense matrix over its PD particles (tests).
std::vector<std::vector<double>> densePdLaplacian(const PdModel& pd);

// The Jacobi iteration of the global step and its Chebyshev acceleration
// live in the linear-solver module (engine/linear, docs/linear.md); PD keeps
// their old names.
using linear::chebyshevOmegas;
using linear::JacobiSpectrum;
using linear::optimalRelaxation;
using linear::relaxedJacobiSpectralRadius;

// Extreme eigenvalues of D^-1 A for A = M/h^2 + L over the free (not
// pinned) PD particles, D = diag(A) (linear::estimateJacobiSpectrum on
// PD's scalar rows; deterministic, Ritz values inside the spectrum).
JacobiSpectrum estimateJacobiSpectrum(const PdModel& pd, double h, uint32_t steps = 96);
// The same over the PD rows `among` alone (increasing, their off-diagonal
// entries among them): a batch copy's system, numbered as a model of that
// copy alone numbers it, so both estimate the same bits (PdConstraints).
JacobiSpectrum estimateJacobiSpectrum(const PdModel& pd, double h, std::span<const uint32_t> among,
                                      uint32_t steps = 96);

}  // namespace vksim
