// docs/physics.md §5, one row of one Jacobi iteration of the global step
// with Chebyshev acceleration (Wang 2015). The residual of
// (M/h^2 + L) q = M/h^2 s + f in difference form (pd_types.h, PdRow):
//   r_i = m_i/h^2 (s_i - q_i) + f_i - a_i q_i + sum_j L_ij (q_i - q_j)
// (a_i: attachment and collision weights, f_i and a_i from the gather pass,
// s = x + h v the inertial prediction), the Jacobi update
// q_hat = q_i + r_i / A_ii, then
//   q^{k+1} = omega (gamma (q_hat - q^k) + q^k - q^{k-1}) + q^{k-1}.
// Pinned particles keep their position. Shared by the kernel that runs one
// iteration (jacobi.comp) and the one that runs all of a global step in
// one workgroup (jacobi_in_workgroup.glsl), so both compute the same bits.
// The includer declares positions, velocities, rows, offDiagonal, rhs,
// rowCopies (each row's batch copy g) and jacobiWeights (each copy's
// relaxation gamma and Chebyshev weights, linear/copy_jacobi_weights.glsl;
// docs/physics.md §5, "Per copy"), and qCurrent(i) / qPrevious(i), the
// iterates q^k and q^{k-1} of particle i.
#ifndef VKSIM_PD_JACOBI_ROW_GLSL
#define VKSIM_PD_JACOBI_ROW_GLSL

#include "linear/chebyshev.glsl"
#include "linear/copy_jacobi_weights.glsl"

// q^{k+1} of row r (particle firstParticle + r) in Jacobi iteration k.
// q, and the inertia target s = x + h v, are relative to the range's origin.
vec4 jacobiRow(uint firstParticle, uint r, float dt, uint k, vec3 origin) {
    uint i = firstParticle + r;
    PdRow row = rows[r];
    float gamma = copyJacobiGamma(rowCopies[r]);
    float omega = copyJacobiOmega(rowCopies[r], k);
    vec4 q = qCurrent(i);
    if (row.mass == 0.0) return q;
    float inertia = row.mass / (dt * dt);
    vec3 s = (positions[i].xyz - origin) + dt * velocities[i].xyz;
    vec4 b = rhs[i];
    vec3 residual = inertia * (s - q.xyz) + b.xyz - b.w * q.xyz;
    for (uint e = row.offDiagonalFirst; e < row.offDiagonalFirst + row.offDiagonalCount; ++e) {
        PdOffDiagonal a = offDiagonal[e];
        residual += a.value * (q.xyz - qCurrent(a.column).xyz);
    }
    vec3 jacobi = q.xyz + residual / (inertia + row.graphDiagonal + b.w);
    vec3 updated = chebyshevJacobiUpdate(jacobi, q.xyz, qPrevious(i), omega, gamma);
    return vec4(updated, q.w);
}

#endif
