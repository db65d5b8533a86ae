// The colliders in the vertex block descent sweeps (docs/physics.md §16,
// "Colliders in the sweeps"). Each vertex gets, once per substep, the
// half-space of its nearest candidate collider: the constraint
// C = f(x) - thickness >= 0 linearised at the prediction p,
//   C(p) + grad f . (x - p) >= 0,  i.e.  n . x >= n . p - C(p)/|grad f|,
// n = grad f/|grad f|; and G gains the penalty k/2 d^2 of a vertex on the
// wrong side (d = n . x - plane.w < 0), k = kVbdColliderWeight m/h^2. Its
// Hessian k n n^T is the exact one of the linearised term: the vertex step
// stays the exact minimiser of the vertex's restriction of G. The VBD passes
// and the CPU reference (vbd_reference.h) both call these: shared math
// (math/real_glsl.h rules). Its includer includes math/coulomb_friction.glsl
// first.
#ifndef VKSIM_VBD_COLLIDER_GLSL
#define VKSIM_VBD_COLLIDER_GLSL

// The half-space of a collider with constraint value C and SDF gradient
// gradF at p: xyz the unit normal n, w the offset. None (a zero gradient, or
// no candidate: real4(0)) is never active.
real4 vbdColliderPlane(real3 p, real C, real3 gradF) {
    real gl = length(gradF);
    if (!(gl > real(0))) return real4(0);
    real3 n = gradF / gl;
    return real4(n, dot(n, p) - C / gl);
}

struct VbdColliderTerms {
    real energy;      // k/2 d^2 [J]
    real3 gradient;   // k d n [N]
    real3x3 hessian;  // k n n^T [N/m]
};

// The penalty of `plane` at x with stiffness k: zero outside the collider.
VbdColliderTerms vbdColliderTerms(real4 plane, real3 x, real k) {
    real3 n = real3(plane);
    real d = dot(n, x) - plane.w;
    if (!(d < real(0))) return VbdColliderTerms(real(0), real3(0), real3x3(real(0)));
    return VbdColliderTerms(real(0.5) * k * d * d, (k * d) * n, k * outerProduct(n, n));
}

// The vertex's friction against the same half-space: the lagged friction
// of math/coulomb_friction.glsl (laggedFriction), its normal force held for
// the step at lambda = normalStiffness |d|, and the tangential slip u of x
// from `anchor`, where the vertex would be had it stuck to the surface over
// the substep (x^0 + h w, w the surface's velocity). No term outside the
// collider.
// normalStiffness is k + m/h^2: the penalty pushes the vertex with k |d|
// and the projection after the solve pushes the depth |d| it leaves, m |d|/h^2
// over the substep: together what the collider gives (with k alone the
// friction was a hundredth short, a cube sliding 0.9% fast).
// What holds the vertex at its anchor is the step's other terms' gradient
// (`gradient`, `hessian`: G's without the friction, at x) moved to the
// anchor along the Newton model, gradient - hessian u.
LaggedFriction vbdFrictionTerms(real4 plane, real3 x, real normalStiffness, real3 anchor, real muStatic,
                                real muKinetic, real stickSlip, real3 gradient, real3x3 hessian) {
    real3 n = real3(plane);
    real d = dot(n, x) - plane.w;
    if (!(d < real(0))) return LaggedFriction(real3(0), real3x3(real(0)));
    real3 u = x - anchor;
    u -= dot(u, n) * n;
    return laggedFriction(n, u, -normalStiffness * d, gradient - hessian * u, muStatic, muKinetic, stickSlip);
}

#endif
