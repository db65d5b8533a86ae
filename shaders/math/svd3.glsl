// The signed 3x3 singular value decomposition shared by the projective
// dynamics strain projection (pd/pd_projections.glsl) and shape matching's
// polar decomposition (pbd/shape_matching.glsl). Shared math: see
// math/real_glsl.h for the rules (matrices are real3x3, indexed
// m[column][row], built from columns); the C++ double build runs the same
// functions in the CPU references and the unit tests.
#ifndef VKSIM_SVD3_GLSL
#define VKSIM_SVD3_GLSL

// Sweeps of cyclic Jacobi on F^T F (3 rotations each). Jacobi converges
// quadratically once the off-diagonal is small; 6 sweeps leave it at
// rounding level in float and in double for any 3x3 input.
const int kSvdJacobiSweeps = 6;
// A unit vector orthogonal to the unit vector u.
real3 anyOrthogonalUnit(real3 u) {
    real3 a = abs(u.x) < real(0.9) ? real3(1, 0, 0) : real3(0, 1, 0);
    return normalize(cross(u, a));
}

// Orthonormalises b against the unit vector u (Gram-Schmidt twice, so the
// result is orthogonal to rounding even when b is nearly parallel to u);
// any unit vector orthogonal to u when nothing of b is left.
real3 orthonormalise(real3 b, real3 u) {
    real3 r = b - dot(u, b) * u;
    r = r - dot(u, r) * u;
    real len = length(r);
    return len > real(1e-30) ? r / len : anyOrthogonalUnit(u);
}

// F = U diag(S) V^T with U and V rotations (det +1), |S.x| >= |S.y| >= |S.z|,
// S.x, S.y >= 0 and S.z < 0 exactly when det F < 0: the sign of a reflection
// goes on the smallest singular value, as docs/physics.md §5 asks for tet strain.
struct Svd3 {
    real3x3 U;
    real3 S;
    real3x3 V;
};

// V from the Jacobi eigen-decomposition of the symmetric F^T F (each
// rotation zeroes one off-diagonal entry: Golub & Van Loan, symmetric Schur
// decomposition), eigenvalues sorted in decreasing order; then B = F V,
// whose columns are orthogonal, is factored B = U R by Gram-Schmidt with
// u2 = u0 x u1 so that U is a rotation, and S = diag(R) (McAdams et al.
// 2011, "Computing the SVD of 3x3 matrices with minimal branching", end of
// section 2). R's off-diagonal is at rounding level.
Svd3 svd3(real3x3 F) {
    real3x3 A = transpose(F) * F;
    real3x3 V = real3x3(real(1));
    for (int sweep = 0; sweep < kSvdJacobiSweeps; ++sweep) {
        for (int pair = 0; pair < 3; ++pair) {
            int p = pair == 2 ? 1 : 0;
            int q = pair == 0 ? 1 : 2;
            real apq = A[q][p];
            // Negligible against the diagonal (and never a denormal, which a
            // GPU may flush to zero inside the division below: 0/0).
            if (abs(apq) <= real(1e-18) * (abs(A[p][p]) + abs(A[q][q]))) continue;
            // tau = (a_qq - a_pp) / (2 a_pq), t = tan(theta) the smaller root of
            // t^2 + 2 tau t - 1 = 0; J has J_pp = J_qq = c, J_pq = s, J_qp = -s.
            real tau = (A[q][q] - A[p][p]) / (real(2) * apq);
            real t = (tau >= real(0) ? real(1) : real(-1)) / (abs(tau) + sqrt(real(1) + tau * tau));
            real c = real(1) / sqrt(real(1) + t * t);
            real s = t * c;
            real3x3 J = real3x3(real(1));
            J[p][p] = c;
            J[q][q] = c;
            J[q][p] = s;
            J[p][q] = -s;
            A = transpose(J) * A * J;
            V = V * J;
        }
    }
    // Sort the eigenvalues of F^T F (the squared singular values) in
    // decreasing order; a column swap flips det V, negating one column
    // restores it.
    real3 lambda = real3(A[0][0], A[1][1], A[2][2]);
    if (lambda.x < lambda.y) {
        real l = lambda.x;
        lambda.x = lambda.y;
        lambda.y = l;
        real3 v = V[0];
        V[0] = V[1];
        V[1] = -v;
    }
    if (lambda.x < lambda.z) {
        real l = lambda.x;
        lambda.x = lambda.z;
        lambda.z = l;
        real3 v = V[0];
        V[0] = V[2];
        V[2] = -v;
    }
    if (lambda.y < lambda.z) {
        real l = lambda.y;
        lambda.y = lambda.z;
        lambda.z = l;
        real3 v = V[1];
        V[1] = V[2];
        V[2] = -v;
    }
    real3x3 B = F * V;
    real s0 = length(B[0]);
    real3 u0 = s0 > real(1e-30) ? B[0] / s0 : real3(1, 0, 0);
    real3 u1 = orthonormalise(B[1], u0);
    real3 u2 = cross(u0, u1);
    return Svd3(real3x3(u0, u1, u2), real3(s0, dot(u1, B[1]), dot(u2, B[2])), V);
}

// U diag(S) V^T.
real3x3 svd3Compose(real3x3 U, real3 S, real3x3 V) {
    return real3x3(U[0] * S.x, U[1] * S.y, U[2] * S.z) * transpose(V);
}

#endif
