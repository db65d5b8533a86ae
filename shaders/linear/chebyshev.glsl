// The Chebyshev-accelerated, relaxed Jacobi update shared by every Jacobi
// solver (docs/linear.md; Wang 2015, "A Chebyshev semi-iterative approach
// for accelerating projective and position-based dynamics"): from the plain
// Jacobi value x_hat = x^k + D^-1 (b - A x^k) of one row,
//   x^{k+1} = omega (gamma (x_hat - x^k) + x^k - x^{k-1}) + x^{k-1}.
// omega = 1 is plain (relaxed) Jacobi; then x^{k-1} drops out. Shared math:
// the C++ double build (engine/geometry/shared_math.h) runs the same function,
// so it follows math/real_glsl.h's rules and includes nothing.
#ifndef VKSIM_LINEAR_CHEBYSHEV_GLSL
#define VKSIM_LINEAR_CHEBYSHEV_GLSL

real3 chebyshevJacobiUpdate(real3 jacobi, real3 current, real3 previous, real omega, real gamma) {
    return omega * (gamma * (jacobi - current) + current - previous) + previous;
}

#endif
