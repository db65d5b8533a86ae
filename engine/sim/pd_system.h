#pragma once
// The global step of projective dynamics (SPEC.md 5), set up once per
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
#include <vector>

#include "sim/sim_model.h"

namespace vksim {

// Fills pd.slots, pd.rows (masses from the inverse masses in `positions`;
// 0 for pinned particles), pd.offDiagonal and pd.gatherSlots from the
// elements and pd.firstParticle / pd.particleCount. Throws
// std::invalid_argument when an element names a particle outside the PD range.
void buildPdSystem(PdModel& pd, const std::vector<glm::vec4>& positions);

// L_rr of PD row r: the attachments' weights minus the sum of the row's
// (float) off-diagonal entries, summed in double, so that the rows of the
// translation-invariant part sum to exactly zero (PdRow in pd_types.h).
double pdLaplacianDiagonal(const PdModel& pd, uint32_t row);

// The scalar L of a model as a dense matrix over its PD particles (tests).
std::vector<std::vector<double>> densePdLaplacian(const PdModel& pd);

// Extreme eigenvalues of D^-1 A for A = M/h^2 + L over the free (not
// pinned) PD particles, D = diag(A): the Jacobi iteration matrix is
// I - D^-1 A, and with under-relaxation gamma I - gamma D^-1 A. Estimated by
// `steps` steps of Lanczos (full reorthogonalisation) on the symmetric
// D^-1/2 A D^-1/2 from a fixed start vector, so deterministic. Ritz values
// lie inside the spectrum: muMin is slightly high, muMax slightly low.
struct JacobiSpectrum {
    double muMin = 1.0;
    double muMax = 1.0;
};
JacobiSpectrum estimateJacobiSpectrum(const PdModel& pd, double h, uint32_t steps = 96);

// Spectral radius of the relaxed Jacobi iteration matrix I - gamma D^-1 A,
// max |1 - gamma mu| over the spectrum, capped at 0.9999 so that the
// Chebyshev weights stay finite.
double relaxedJacobiSpectralRadius(const JacobiSpectrum& spectrum, double gamma);

// The relaxation that centres the spectrum of I - gamma D^-1 A on zero,
// gamma = 2 / (mu_min + mu_max): the smallest spectral radius,
// (mu_max - mu_min) / (mu_max + mu_min), and the symmetric interval
// [-rho, rho] Chebyshev acceleration assumes. It exceeds 1 (over-relaxation)
// when mu_min + mu_max < 2.
double optimalRelaxation(const JacobiSpectrum& spectrum);

// omega_{k+1} for k = 0 .. iterations-1 (SPEC.md 5): 1, 2/(2 - rho^2),
// then 4/(4 - rho^2 omega_k). All 1 without Chebyshev (plain Jacobi).
std::vector<float> chebyshevOmegas(double rho, uint32_t iterations, bool chebyshev);

}  // namespace vksim
