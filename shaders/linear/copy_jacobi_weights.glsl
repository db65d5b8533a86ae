// Each batch copy's relaxation gamma and Chebyshev weights of a Jacobi
// solve (engine/solvers/copy_jacobi_weights.h): word 0 of jacobiWeights the
// stride s, then from word 1 + g s copy g's gamma and omega_{k+1} of each
// iteration k, as float bits. The includer declares the uint buffer
// jacobiWeights[].
#ifndef VKSIM_LINEAR_COPY_JACOBI_WEIGHTS_GLSL
#define VKSIM_LINEAR_COPY_JACOBI_WEIGHTS_GLSL

float copyJacobiGamma(uint copy) { return uintBitsToFloat(jacobiWeights[1u + copy * jacobiWeights[0]]); }

// omega_{k+1} of copy `copy` in Jacobi iteration k (0-based).
float copyJacobiOmega(uint copy, uint k) { return uintBitsToFloat(jacobiWeights[2u + copy * jacobiWeights[0] + k]); }

#endif
