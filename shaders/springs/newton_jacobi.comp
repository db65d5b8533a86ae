#version 460
// One block-Jacobi iteration of Newton's system (linear/block_jacobi.glsl,
// docs/physics.md §9.7), each batch copy's rows with the relaxation and
// Chebyshev weights of the copy's own spectrum (SpringSolver; a scene's
// world is one copy).
#define BLOCK_JACOBI_COPY_WEIGHTS
#include "linear/block_jacobi.glsl"
