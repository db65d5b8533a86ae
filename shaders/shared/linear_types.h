// The structs and push constants of the block-Jacobi pass
// (shaders/linear/block_jacobi.comp, docs/linear.md), shared by GLSL and C++.
// A symmetric matrix of 3x3 blocks in compressed block rows: row i owns the
// blocks [first, first + count) of the block array, in increasing column
// order and with its diagonal block among them. Vectors are vec4 per block
// row (xyz; w unused and carried through).
#ifndef VKSIM_LINEAR_TYPES_H
#define VKSIM_LINEAR_TYPES_H
#include "gpu_compat.h"

GPU_NAMESPACE_BEGIN

// One 3x3 block A_ij as three vec4 columns (xyz; a mat3 in a std430 buffer
// would pad each column to 16 bytes anyway, and C++'s glm::mat3 does not).
struct LinearBlock {
    vec4 column0;
    vec4 column1;
    vec4 column2;
    uint column;  // j, the block column
    uint pad0;
    uint pad1;
    uint pad2;
};
GPU_CHECK_SIZE(LinearBlock, 64);

// One block row: where its blocks are and the inverse of its diagonal block
// D_i^-1 (columns, xyz), precomputed in double on the CPU.
struct LinearBlockRow {
    vec4 inverseDiagonal0;
    vec4 inverseDiagonal1;
    vec4 inverseDiagonal2;
    uint first;
    uint count;
    uint pad0;
    uint pad1;
};
GPU_CHECK_SIZE(LinearBlockRow, 64);

// Push constants of one block-Jacobi iteration: its omega and gamma, or
// with each copy's weights (BLOCK_JACOBI_COPY_WEIGHTS) its index k.
struct BlockJacobiPush {
    uint rowCount;
    float omega;     // Chebyshev omega_{k+1} of this iteration (1 = plain)
    float gamma;     // relaxation
    uint iteration;  // k, 0-based
};
GPU_CHECK_SIZE(BlockJacobiPush, 16);

GPU_NAMESPACE_END

#endif
