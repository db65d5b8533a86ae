// Coulomb friction with a static and a kinetic coefficient (docs/physics.md
// §3, §11, §14), the one rule every contact applies: the particle
// projections against colliders, the contact pairs between objects and the
// rigid-body impulses. Shared math: see math/real_glsl.h for the rules; it
// includes nothing.
#ifndef VKSIM_COULOMB_FRICTION_GLSL
#define VKSIM_COULOMB_FRICTION_GLSL

// Whether a contact sticks: the tangential amount that would hold it,
// `stick` (a slip to undo, an impulse that stops the sliding), lies inside
// the static cone of its normal amount, `normal` (the depth pushed out, the
// normal impulse): stick <= mu_s normal (Macklin et al. 2014, §6.1).
bool frictionSticks(real stick, real normal, real muStatic) { return stick <= muStatic * normal; }

// The tangential amount friction takes away of `stick`: all of it while the
// contact sticks (frictionSticks), else the kinetic mu_k normal, never more
// than stick (friction does not reverse the motion). With mu_s = mu_k it is
// min(stick, mu normal), the single-coefficient rule, bit for bit.
real frictionMagnitude(real stick, real normal, real muStatic, real muKinetic) {
    if (frictionSticks(stick, normal, muStatic)) return stick;
    return min(stick, muKinetic * normal);
}

// A lagged friction's gradient and Hessian block (laggedFriction).
struct LaggedFriction {
    real3 gradient;   // [N]
    real3x3 hessian;  // [N/m]
};

// IPC's mollifier (Li et al. 2020, eq. 14) over the slip s = |u|, f1(s)/s:
// 2/e - s/e^2 below e, 1/s above; finite at s = 0.
real frictionF1OverS(real s, real stickSlip) {
    return s < stickSlip ? (real(2) - s / stickSlip) / stickSlip : real(1) / s;
}

// Its integral f0(s) = int_0^s f1 (IPC's f0 less its constant, which no
// gradient sees): s^2/e - s^3/(3 e^2) below e, s - e/3 above, so that the
// lagged potential D(u) = mu lambda f0(|u|) has the gradient
// mu lambda f1(|u|) u/|u| of laggedFrictionOfCurvature. Newton's line search
// evaluates D (springs/contact_energy.glsl).
real frictionF0(real s, real stickSlip) {
    return s < stickSlip ? s * s / stickSlip - s * s * s / (real(3) * stickSlip * stickSlip)
                         : s - stickSlip / real(3);
}

// Whether lagged friction takes mu_s or mu_k (frictionSticks): mu_s where
// the tangential part of `hold` lies inside the static cone of `normalForce`.
real laggedFrictionCoefficient(real3 n, real normalForce, real3 hold, real muStatic, real muKinetic) {
    hold -= dot(hold, n) * n;
    return frictionSticks(length(hold), normalForce, muStatic) ? muStatic : muKinetic;
}

// The lagged friction's curvature at the tangential slip u for its load
// mu lambda: mu lambda f1(|u|)/|u|.
real laggedFrictionCurvature(real3 u, real load, real stickSlip) {
    return load * frictionF1OverS(length(u), stickSlip);
}

// Its gradient and block: mu lambda f1(|u|) u/|u| and
// mu lambda f1(|u|)/|u| (I - n n^T), of the curvature c = mu lambda f1/|u|.
LaggedFriction laggedFrictionOfCurvature(real3 n, real3 u, real curvature) {
    return LaggedFriction(curvature * u, curvature * (real3x3(real(1)) - outerProduct(n, n)));
}

// IPC's lagged friction (Li et al. 2020, §5) as vertex block descent takes
// it (Chen et al. 2024), for one contact of a vertex step: unit normal n,
// the normal force held for the step, `normalForce` = lambda, and the
// tangential slip u (orthogonal to n) of the vertex from where it would be
// had the contact stuck over the substep:
//   force -mu lambda f1(|u|) u/|u|,  f1(s) = 2 s/e - s^2/e^2 below e, 1 above,
// e = stickSlip = eps_v h: a spring while the vertex slips less than e, the
// full mu lambda beyond. The block gets IPC's positive semi-definite
// mu lambda f1(|u|)/|u| (I - n n^T), which bounds the exact one from above
// and is finite at u = 0 (f1(s)/s -> 2/e).
// mu is Coulomb's, by frictionSticks: mu_s where `hold`, the force that
// holds the vertex at its sticking place (the step's other terms'
// gradient moved there along their Newton model), has a tangential part
// inside the static cone of lambda, mu_k where it does not (it slides).
// Taken from what holds the vertex, not from how fast it moves, so a vertex
// placed at rest on a slope between mu_k and mu_s has one fixed point,
// sticking, and one slowing down sticks once mu_s can stop it within the
// substep, as the projection's cone has it.
LaggedFriction laggedFriction(real3 n, real3 u, real normalForce, real3 hold, real muStatic, real muKinetic,
                              real stickSlip) {
    real mu = laggedFrictionCoefficient(n, normalForce, hold, muStatic, muKinetic);
    return laggedFrictionOfCurvature(n, u, laggedFrictionCurvature(u, mu * normalForce, stickSlip));
}

#endif
