#version 460
// docs/physics.md §5, one Jacobi iteration of the global step with Chebyshev
// acceleration (Wang 2015), one thread per PD particle. The residual of
// (M/h^2 + L) q = M/h^2 s + f in difference form (pd_types.h, PdRow):
//   r_i = m_i/h^2 (s_i - q_i) + f_i - a_i q_i + sum_j L_ij (q_i - q_j)
// (a_i: attachment and collision weights, f_i and a_i from the gather pass,
// s = x + h v the inertial prediction), the Jacobi update
// q_hat = q_i + r_i / A_ii, then
//   q^{k+1} = omega (gamma (q_hat - q^k) + q^k - q^{k-1}) + q^{k-1}.
// Reads q^{k-1} and q^k, writes q^{k+1}: three buffers in rotation, so no
// thread reads what another writes. Pinned particles keep their position.
#include "shared/kernel.glsl"
#include "shared/pd_types.h"
#include "linear/chebyshev.glsl"

layout(push_constant) uniform Push { PdParticlePush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 2) readonly buffer Rows { PdRow rows[]; };
layout(std430, binding = 3) readonly buffer OffDiagonal { PdOffDiagonal offDiagonal[]; };
layout(std430, binding = 4) readonly buffer Rhs { vec4 rhs[]; };
layout(std430, binding = 5) readonly buffer Previous { vec4 previous[]; };
layout(std430, binding = 6) readonly buffer Current { vec4 current[]; };
layout(std430, binding = 7) writeonly buffer Next { vec4 next[]; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= pc.particleCount) return;
    uint i = pc.firstParticle + r;
    PdRow row = rows[r];
    vec4 q = current[i];
    if (row.mass == 0.0) {
        next[i] = q;
        return;
    }
    float inertia = row.mass / (pc.dt * pc.dt);
    vec3 s = positions[i].xyz + pc.dt * velocities[i].xyz;
    vec4 b = rhs[i];
    vec3 residual = inertia * (s - q.xyz) + b.xyz - b.w * q.xyz;
    for (uint k = row.offDiagonalFirst; k < row.offDiagonalFirst + row.offDiagonalCount; ++k) {
        PdOffDiagonal a = offDiagonal[k];
        residual += a.value * (q.xyz - current[a.column].xyz);
    }
    vec3 jacobi = q.xyz + residual / (inertia + row.graphDiagonal + b.w);
    vec3 updated = chebyshevJacobiUpdate(jacobi, q.xyz, previous[i].xyz, pc.omega, pc.gamma);
    next[i] = vec4(updated, q.w);
}
