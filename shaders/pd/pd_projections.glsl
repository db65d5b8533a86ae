// Local step of projective dynamics (docs/physics.md §5; Bouaziz et al. 2014,
// "Projective Dynamics: Fusing Constraint Projections for Fast Simulation"):
// for each element, the point p_i of its constraint set closest to the
// current shape A_i S_i q. Stateless; shared math: see math/real_glsl.h
// for the rules (matrices are real3x3, indexed m[column][row], built from
// columns). The C++ double build runs the very same functions in the CPU
// reference solver and the unit tests.
#ifndef VKSIM_PD_PROJECTIONS_GLSL
#define VKSIM_PD_PROJECTIONS_GLSL

// Sweeps of cyclic Jacobi on F^T F (3 rotations each). Jacobi converges
// quadratically once the off-diagonal is small; 6 sweeps leave it at
// rounding level in float and in double for any 3x3 input.
const int kSvdJacobiSweeps = 6;
// Iterations of the volume projection's D update (quadratic near the solution).
const int kVolumeIterations = 20;

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

// F = sum_k q_k g_k^T of a tetrahedron, g_0 = -(g_1 + g_2 + g_3), i.e.
// [q1 - q0, q2 - q0, q3 - q0] times the inverse rest edge matrix (whose rows
// are g_1, g_2, g_3).
real3x3 tetDeformationGradient(real3 q0, real3 q1, real3 q2, real3 q3, real3 g1, real3 g2, real3 g3) {
    real3 e1 = q1 - q0;
    real3 e2 = q2 - q0;
    real3 e3 = q3 - q0;
    return real3x3(e1 * g1.x + e2 * g2.x + e3 * g3.x, e1 * g1.y + e2 * g2.y + e3 * g3.y,
                   e1 * g1.z + e2 * g2.z + e3 * g3.z);
}

// Tet strain: T = U clamp(S, sigmaMin, sigmaMax) V^T with the signed SVD
// above, so an inverted element (det F < 0, S.z < 0) is pushed back to a
// positive orientation. sigmaMin = sigmaMax = 1 is as-rigid-as-possible:
// T is the rotation closest to F.
real3x3 pdTetStrainTarget(real3x3 F, real sigmaMin, real sigmaMax) {
    Svd3 d = svd3(F);
    real3 S = real3(clamp(d.S.x, sigmaMin, sigmaMax), clamp(d.S.y, sigmaMin, sigmaMax),
                    clamp(d.S.z, sigmaMin, sigmaMax));
    return svd3Compose(d.U, S, d.V);
}

// Tet volume: the closest T = U diag(S + D) V^T whose volume ratio
// det T = prod(S_i + D_i) lies in [volumeMin, volumeMax]. Starting from
// D = 0, D <- (grad C(D).D - C(D)) / |grad C(D)|^2 grad C(D) with
// C(D) = prod(S_i + D_i) - sigma, sigma = det F clamped (docs/physics.md §5): each
// step is the smallest D that satisfies C linearised at the current D.
// F itself when its volume is already in range. kVolumeIterations steps,
// then an exact uniform correction.
real3x3 pdTetVolumeTarget(real3x3 F, real volumeMin, real volumeMax) {
    Svd3 d = svd3(F);
    real volume = d.S.x * d.S.y * d.S.z;
    real target = clamp(volume, volumeMin, volumeMax);
    if (volume == target) return F;
    real3 D = real3(0);
    for (int it = 0; it < kVolumeIterations; ++it) {
        real3 y = d.S + D;
        real C = y.x * y.y * y.z - target;
        real3 gradC = real3(y.y * y.z, y.x * y.z, y.x * y.y);
        real g2 = dot(gradC, gradC);
        if (g2 <= real(1e-30)) break;
        D = (dot(gradC, D) - C) / g2 * gradC;
    }
    // The update converges linearly in its last digits (its direction keeps
    // turning towards the minimal-norm one); a final uniform scale of S + D,
    // a change of the order of the remaining error, hits the volume exactly.
    real3 y = d.S + D;
    real product = y.x * y.y * y.z;
    if (product > real(0) && target > real(0)) y = y * pow(target / product, real(1) / real(3));
    return svd3Compose(d.U, y, d.V);
}

// F = sum_k q_k g_k^T of a triangle (3x2, given by its two columns) and the
// strain target T in the same form.
struct Columns32 {
    real3 c0;
    real3 c1;
};

Columns32 triangleDeformationGradient(real3 q0, real3 q1, real3 q2, real2 g1, real2 g2) {
    real3 e1 = q1 - q0;
    real3 e2 = q2 - q0;
    return Columns32(e1 * g1.x + e2 * g2.x, e1 * g1.y + e2 * g2.y);
}

// Triangle strain: F (3x2) = sigma_0 u_0 v_0^T + sigma_1 u_1 v_1^T with
// sigma >= 0 (one Jacobi rotation diagonalises the 2x2 F^T F exactly), and
// T = sum_k clamp(sigma_k, sigmaMin, sigmaMax) u_k v_k^T. A 3x2 map has no
// orientation, so there is no reflection to handle.
Columns32 pdTriangleStrainTarget(Columns32 F, real sigmaMin, real sigmaMax) {
    real a = dot(F.c0, F.c0);
    real b = dot(F.c0, F.c1);
    real c = dot(F.c1, F.c1);
    real cs = real(1);
    real sn = real(0);
    if (abs(b) > real(1e-18) * (a + c)) {
        real tau = (c - a) / (real(2) * b);
        real t = (tau >= real(0) ? real(1) : real(-1)) / (abs(tau) + sqrt(real(1) + tau * tau));
        cs = real(1) / sqrt(real(1) + t * t);
        sn = t * cs;
    }
    // V = [v0 v1] with v0 = (c, -s), v1 = (s, c); the larger eigenvalue first.
    real2 v0 = real2(cs, -sn);
    real2 v1 = real2(sn, cs);
    if (a - (sn / cs) * b < c + (sn / cs) * b) {
        real2 v = v0;
        v0 = v1;
        v1 = v;
    }
    real3 b0 = F.c0 * v0.x + F.c1 * v0.y;
    real3 b1 = F.c0 * v1.x + F.c1 * v1.y;
    real s0 = length(b0);
    real3 u0 = s0 > real(1e-30) ? b0 / s0 : real3(1, 0, 0);
    real3 u1 = orthonormalise(b1, u0);
    real s1 = dot(u1, b1);
    real t0 = clamp(s0, sigmaMin, sigmaMax);
    real t1 = clamp(s1, sigmaMin, sigmaMax);
    return Columns32(t0 * v0.x * u0 + t1 * v1.x * u1, t0 * v0.y * u0 + t1 * v1.y * u1);
}

// Edge spring: the edge vector d = q0 - q1 rescaled to the rest length
// (the projection onto {|p| = restLength}); d itself when it has no direction.
real3 pdSpringTarget(real3 d, real restLength) {
    real len = length(d);
    if (len <= real(1e-30)) return d;
    return d * (restLength / len);
}

// Bending: R v_g, the rest curvature vector rotated onto the current one,
// in closed form v_f |v_g| / |v_f| (docs/physics.md §5); zero for a flat rest shape.
real3 pdBendingTarget(real3 vf, real restNorm) {
    real len = length(vf);
    if (len <= real(1e-30)) return real3(0);
    return vf * (restNorm / len);
}

#endif
