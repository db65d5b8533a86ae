#version 460
// docs/physics.md §5, one Jacobi iteration of the global step with
// Chebyshev acceleration (jacobi_row.glsl), one thread per PD particle.
// Reads q^{k-1} and q^k, writes q^{k+1}: three buffers in rotation, so no
// thread reads what another writes.
#include "shared/kernel.glsl"
#include "pd/pd_types.h"

layout(push_constant) uniform Push { PdParticlePush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 2) readonly buffer Rows { PdRow rows[]; };
layout(std430, binding = 3) readonly buffer OffDiagonal { PdOffDiagonal offDiagonal[]; };
layout(std430, binding = 4) readonly buffer Rhs { vec4 rhs[]; };
layout(std430, binding = 5) readonly buffer Previous { vec4 previous[]; };
layout(std430, binding = 6) readonly buffer Current { vec4 current[]; };
layout(std430, binding = 7) writeonly buffer Next { vec4 next[]; };
layout(std430, binding = 8) readonly buffer RowCopies { uint rowCopies[]; };
layout(std430, binding = 9) readonly buffer JacobiWeights { uint jacobiWeights[]; };

vec4 qCurrent(uint i) { return current[i]; }
vec3 qPrevious(uint i) { return previous[i].xyz; }
#include "pd/jacobi_row.glsl"

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= pc.particleCount) return;
    next[pc.firstParticle + r] =
        jacobiRow(pc.firstParticle, r, pc.dt, pc.iteration, vec3(pc.originX, pc.originY, pc.originZ));
}
