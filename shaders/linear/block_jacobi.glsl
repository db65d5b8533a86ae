// One block-Jacobi iteration with Chebyshev acceleration on a symmetric
// matrix of 3x3 block rows (docs/linear.md), one thread per block row:
//   x_hat = x^k + D_i^-1 (b_i - sum_j A_ij x_j^k),
//   x^{k+1} = omega (gamma (x_hat - x^k) + x^k - x^{k-1}) + x^{k-1}.
// The row sum runs over the row's blocks in stored (column) order, so the
// result does not depend on scheduling. Reads x^{k-1} and x^k, writes
// x^{k+1}: three buffers in rotation, so no thread reads what another writes.
// A pass with more of A than the stored blocks defines
// BLOCK_JACOBI_MORE_BLOCKS and, after including this, the product of the
// rest of row i with x^k, `vec3 moreBlocksProduct(uint i)`
// (springs/newton_jacobi_contacts.comp). A pass whose rows are several
// systems, each with its own gamma and omegas (a batch's copies), defines
// BLOCK_JACOBI_COPY_WEIGHTS: each row's copy and each copy's weights then
// come from bindings 6 and 7 (linear/copy_jacobi_weights.glsl) for
// iteration pc.iteration, and pc.omega and pc.gamma go unread.
#include "shared/kernel.glsl"
#include "shared/linear_types.h"
#include "linear/chebyshev.glsl"

layout(push_constant) uniform Push { BlockJacobiPush pc; };
layout(std430, binding = 0) readonly buffer Rows { LinearBlockRow rows[]; };
layout(std430, binding = 1) readonly buffer Blocks { LinearBlock blocks[]; };
layout(std430, binding = 2) readonly buffer Rhs { vec4 rhs[]; };
layout(std430, binding = 3) readonly buffer Previous { vec4 previous[]; };
layout(std430, binding = 4) readonly buffer Current { vec4 current[]; };
layout(std430, binding = 5) writeonly buffer Next { vec4 next[]; };

#ifdef BLOCK_JACOBI_COPY_WEIGHTS
layout(std430, binding = 6) readonly buffer RowCopies { uint rowCopies[]; };
layout(std430, binding = 7) readonly buffer JacobiWeights { uint jacobiWeights[]; };
#include "linear/copy_jacobi_weights.glsl"
#endif

#ifdef BLOCK_JACOBI_MORE_BLOCKS
vec3 moreBlocksProduct(uint i);
#endif

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.rowCount) return;
    LinearBlockRow row = rows[i];
    vec4 x = current[i];
    vec3 residual = rhs[i].xyz;
    for (uint k = row.first; k < row.first + row.count; ++k) {
        LinearBlock a = blocks[k];
        vec3 xj = current[a.column].xyz;
        residual -= a.column0.xyz * xj.x + a.column1.xyz * xj.y + a.column2.xyz * xj.z;
    }
#ifdef BLOCK_JACOBI_MORE_BLOCKS
    residual -= moreBlocksProduct(i);
#endif
    mat3 inverseDiagonal = mat3(row.inverseDiagonal0.xyz, row.inverseDiagonal1.xyz, row.inverseDiagonal2.xyz);
    vec3 jacobi = x.xyz + inverseDiagonal * residual;
#ifdef BLOCK_JACOBI_COPY_WEIGHTS
    float omega = copyJacobiOmega(rowCopies[i], pc.iteration);
    float gamma = copyJacobiGamma(rowCopies[i]);
#else
    float omega = pc.omega;
    float gamma = pc.gamma;
#endif
    next[i] = vec4(chebyshevJacobiUpdate(jacobi, x.xyz, previous[i].xyz, omega, gamma), x.w);
}
