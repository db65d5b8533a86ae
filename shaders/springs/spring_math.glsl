// The math of the mass-spring solver (docs/physics.md §9): Hooke springs
// with the locking remedies, their clamped Hessian blocks, dihedral-angle
// bending forces (Bridson et al. 2003) and the explicit integrators' update
// rules. Shared math: the CPU reference (engine/solvers/springs/spring_reference.h)
// runs these same functions in double, so this file follows
// math/real_glsl.h's rules and includes nothing.
#ifndef VKSIM_SPRING_MATH_GLSL
#define VKSIM_SPRING_MATH_GLSL

// One spring seen from its end i: the force on i, the spring's energy and
// the 3x3 block d^2E/dx_i^2 (= -d^2E/dx_i dx_j), with the geometric term
// clamped at zero so the block is positive semi-definite (§9.3).
struct SpringTerms {
    real3 force;
    real energy;
    real3x3 hessian;
};

// The spring's behaviour at length l (§9.4): the effective stiffness and
// rest length of the branch it is on. Stretched (l > L): k, L. Compressed
// below the slack length L (1 - slack): compressionScale k about that length.
// In between it is slack: stiffness 0.
struct SpringBranch {
    real stiffness;
    real restLength;
};

SpringBranch springBranch(real l, real L, real k, real compressionScale, real slack) {
    if (l >= L) return SpringBranch(k, L);
    real slackLength = L * (real(1) - slack);
    if (l <= slackLength) return SpringBranch(k * compressionScale, slackLength);
    return SpringBranch(real(0), L);
}

// E = k/2 (|d| - L)^2 with d = x_i - x_j; f_i = -k (|d| - L) d/|d|;
// d^2E/dx_i^2 = k d d^T/|d|^2 + k (1 - L/|d|)(I - d d^T/|d|^2), the second
// term dropped when negative (compressed), Choi & Ko 2002.
SpringTerms springTerms(real3 xi, real3 xj, real L, real k, real compressionScale, real slack) {
    real3 d = xi - xj;
    real l = length(d);
    if (l <= real(0)) return SpringTerms(real3(0), real(0), real3x3(real(0)));
    SpringBranch b = springBranch(l, L, k, compressionScale, slack);
    real3 n = d / l;
    real stretch = l - b.restLength;
    real3x3 nn = real3x3(n * n.x, n * n.y, n * n.z);
    real geometric = max(b.stiffness * (real(1) - b.restLength / l), real(0));
    real3x3 hessian = b.stiffness * nn + geometric * (real3x3(real(1)) - nn);
    return SpringTerms(-b.stiffness * stretch * n, real(0.5) * b.stiffness * stretch * stretch, hessian);
}

// The dihedral angle of the hinge with edge (x0, x1) and wing tips x2 (of
// triangle x0 x1 x2) and x3 (of triangle x1 x0 x3): 0 when flat, positive
// when the wing tips fold away from the side the normals (x1 - x0) x
// (x2 - x0) point to, in (-pi, pi] (tests/unit/spring_math_test.cpp).
real dihedralAngle(real3 x0, real3 x1, real3 x2, real3 x3) {
    real3 e = x1 - x0;
    real3 n1 = cross(x1 - x0, x2 - x0);
    real3 n2 = cross(x0 - x1, x3 - x1);
    real el = length(e);
    real l1 = length(n1);
    real l2 = length(n2);
    if (el <= real(0) || l1 <= real(0) || l2 <= real(0)) return real(0);
    real3 m1 = n1 / l1;
    real3 m2 = n2 / l2;
    return atan(dot(cross(m1, m2), e / el), dot(m1, m2));
}

// Bridson, Marino & Fedkiw 2003, "Simulation of clothing with folds and
// wrinkles", section 4: the bending forces of one hinge,
//   F_k = k |E|^2 / (|N1| + |N2|) (sin(theta/2) - sin(theta_0/2)) u_k,
// with u1 = |E| N1/|N1|^2, u2 = |E| N2/|N2|^2 on the wing tips and u3, u4
// on the edge ends (they sum to zero, so momentum is conserved). Here N1, N2
// are the unnormalised triangle normals and E the shared edge. `role` picks
// the vertex: 0, 1 the edge ends x0, x1; 2, 3 the tips x2, x3.
real3 dihedralForce(real3 x0, real3 x1, real3 x2, real3 x3, real restAngle, real k, uint role) {
    real3 e = x1 - x0;
    real el = length(e);
    // Bridson's names: x1 = our x2 (tip), x2 = our x3 (tip), x3 = x0, x4 = x1.
    real3 n1 = cross(x2 - x0, x2 - x1);
    real3 n2 = cross(x3 - x1, x3 - x0);
    real n1sq = dot(n1, n1);
    real n2sq = dot(n2, n2);
    if (el <= real(0) || n1sq <= real(0) || n2sq <= real(0)) return real3(0);
    real theta = dihedralAngle(x0, x1, x2, x3);
    real magnitude = k * el * el / (sqrt(n1sq) + sqrt(n2sq)) * (sin(real(0.5) * theta) - sin(real(0.5) * restAngle));
    real3 en = e / el;
    real3 u;
    if (role == 2u) {
        u = el * n1 / n1sq;
    } else if (role == 3u) {
        u = el * n2 / n2sq;
    } else if (role == 0u) {
        u = dot(x2 - x1, en) * n1 / n1sq + dot(x3 - x1, en) * n2 / n2sq;
    } else {
        u = -(dot(x2 - x0, en) * n1 / n1sq + dot(x3 - x0, en) * n2 / n2sq);
    }
    return magnitude * u;
}

#endif
