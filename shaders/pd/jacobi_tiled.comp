#version 460
// docs/physics.md §5, "A tiled matrix-vector product": one Jacobi iteration
// of the global step, as jacobi.comp, for large systems. A workgroup takes
// kTileRows consecutive rows and first copies the iterate q^k of the
// particles near them, the rows' indices widened by kHalo on each side,
// into shared memory, so that a neighbour's q^k, read once per
// off-diagonal entry, comes from shared memory instead of device memory. A
// grid or a spatially ordered mesh has its neighbours within a band of
// indices (a w-wide cloth: w + 1), so one tile's copy serves about 8 reads
// per entry; a column outside the window is read from device memory.
// Each row is computed by the same function as on the other paths
// (jacobi_row.glsl) from the same values, so all give the same bits.
#extension GL_GOOGLE_include_directive : require
#include "shared/sim_types.h"
#include "pd/pd_types.h"
#include "math/real_glsl.h"

layout(local_size_x = 256) in;
const uint kSize = gl_WorkGroupSize.x;
const uint kRowsPerInvocation = 4u;
const uint kTileRows = kSize * kRowsPerInvocation;  // PdSolver::kTiledJacobiRows
// Particles of the window on each side of the tile: the system's bandwidth,
// capped so the window fits maxComputeSharedMemorySize (set at pipeline
// creation by PdSolver).
layout(constant_id = 0) const uint kHalo = 0u;

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

shared vec4 window[kTileRows + 2u * kHalo];
uint windowFirst;  // global index of window[0]
uint windowCount;

vec4 qCurrent(uint i) { return i - windowFirst < windowCount ? window[i - windowFirst] : current[i]; }
vec3 qPrevious(uint i) { return previous[i].xyz; }
#include "pd/jacobi_row.glsl"

void main() {
    uint tileFirst = gl_WorkGroupID.x * kTileRows;
    uint first = pc.firstParticle, end = pc.firstParticle + pc.particleCount;
    windowFirst = first + (tileFirst > kHalo ? tileFirst - kHalo : 0u);
    windowCount = min(first + tileFirst + kTileRows + kHalo, end) - windowFirst;
    for (uint k = gl_LocalInvocationID.x; k < windowCount; k += kSize) window[k] = current[windowFirst + k];
    barrier();
    for (uint j = 0u; j < kRowsPerInvocation; ++j) {
        uint r = tileFirst + j * kSize + gl_LocalInvocationID.x;
        if (r < pc.particleCount)
            next[first + r] = jacobiRow(first, r, pc.dt, pc.iteration, vec3(pc.originX, pc.originY, pc.originZ));
    }
}
