// Local step of projective dynamics (docs/physics.md §5; Bouaziz et al. 2014,
// "Projective Dynamics: Fusing Constraint Projections for Fast Simulation"):
// for each element, the point p_i of its constraint set closest to the
// current shape A_i S_i q. Stateless; shared math: see math/real_glsl.h
// for the rules (matrices are real3x3, indexed m[column][row], built from
// columns). The C++ double build runs the very same functions in the CPU
// reference solver and the unit tests. Uses svd3 (math/svd3.glsl, which
// the includer includes first).
#ifndef VKSIM_PD_PROJECTIONS_GLSL
#define VKSIM_PD_PROJECTIONS_GLSL

// Iterations of the volume projection's D update (quadratic near the solution).
const int kVolumeIterations = 20;

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
