#version 460
// One block-Jacobi iteration with Chebyshev acceleration (linear/block_jacobi.glsl).
#include "linear/block_jacobi.glsl"
