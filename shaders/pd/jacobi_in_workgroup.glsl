// docs/physics.md §5, "The global step in one dispatch": all J Jacobi
// iterations of a global step in one workgroup, for systems small enough
// that a dispatch per iteration costs more than the work. Row r belongs to
// invocation r % kSize in every iteration; the three iterate buffers rotate
// as on the per-iteration path (jacobi.comp), and a workgroup barrier, with
// the buffer writes made visible, replaces the pipeline barrier between
// iterations. Each row is computed by the same function (jacobi_row.glsl)
// with the same weights, so both paths give the same bits. The includer
// (jacobi_in_workgroup_<size>.comp) sets the workgroup size.
#extension GL_GOOGLE_include_directive : require
#include "shared/sim_types.h"
#include "pd/pd_types.h"
#include "math/real_glsl.h"
const uint kSize = gl_WorkGroupSize.x;

layout(push_constant) uniform Push { PdJacobiRunPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 2) readonly buffer Rows { PdRow rows[]; };
layout(std430, binding = 3) readonly buffer OffDiagonal { PdOffDiagonal offDiagonal[]; };
layout(std430, binding = 4) readonly buffer Rhs { vec4 rhs[]; };
// The three iterates (the store's predicted positions and the solver's two).
layout(std430, binding = 5) coherent buffer Q0 { vec4 q0[]; };
layout(std430, binding = 6) coherent buffer Q1 { vec4 q1[]; };
layout(std430, binding = 7) coherent buffer Q2 { vec4 q2[]; };
// Each row's batch copy, and each copy's gamma and omega_{k+1} of each
// iteration, as uploaded from the CPU's recurrence (pd_types.h).
layout(std430, binding = 8) readonly buffer RowCopies { uint rowCopies[]; };
layout(std430, binding = 9) readonly buffer JacobiWeights { uint jacobiWeights[]; };

vec4 loadQ(uint b, uint i) {
    if (b == 0u) return q0[i];
    if (b == 1u) return q1[i];
    return q2[i];
}
void storeQ(uint b, uint i, vec4 v) {
    if (b == 0u)
        q0[i] = v;
    else if (b == 1u)
        q1[i] = v;
    else
        q2[i] = v;
}

uint currentBuffer, previousBuffer;  // of the iteration in progress
vec4 qCurrent(uint i) { return loadQ(currentBuffer, i); }
vec3 qPrevious(uint i) { return loadQ(previousBuffer, i).xyz; }
#include "pd/jacobi_row.glsl"

void main() {
    PdParticlePush p = pc.particles;
    uint c = pc.firstBuffer;
    for (uint k = 0u; k < pc.iterations; ++k) {
        // (previous, current, next) as PdSolver::recordSolve rotates them:
        // the first iteration from q^0 has q^{-1} = q^0.
        uint d = k == 0u ? c : (c + k - 1u) % 3u;
        previousBuffer = d;
        currentBuffer = k == 0u ? c : (d + 1u) % 3u;
        uint nextBuffer = k == 0u ? (c + 1u) % 3u : (d + 2u) % 3u;
        for (uint r = gl_LocalInvocationID.x; r < p.particleCount; r += kSize)
            storeQ(nextBuffer, p.firstParticle + r,
                   jacobiRow(p.firstParticle, r, p.dt, k, vec3(p.originX, p.originY, p.originZ)));
        memoryBarrierBuffer();
        barrier();
    }
}
