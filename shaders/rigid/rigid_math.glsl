// Rigid-body dynamics of one body (docs/physics.md §11): the velocity and
// orientation updates of a substep and the impulse that gives a contact
// point its bounce and friction. Shared math: see math/real_glsl.h for the rules;
// the CPU reference (engine/solvers/rigid/rigid_reference.h) runs these same
// functions in double. Needs math/quaternion.glsl and math/coulomb_friction.glsl
// first.
#ifndef VKSIM_RIGID_MATH_GLSL
#define VKSIM_RIGID_MATH_GLSL

struct BodyVelocity {
    real3 linear;
    real3 angular;
};

// A body's shape placed at its pose (rigid/body_collider.glsl): the origin
// of the shape's frame, at `offset` in the frame of a body with centre of
// mass c and rotation q, and that origin's velocity v + w x (origin - c), the
// frame velocity a surface point's is taken from (v_frame + w x (x - origin)).
struct BodyShapeFrame {
    real3 origin;
    real3 velocity;
};

BodyShapeFrame bodyShapeFrame(real3 c, real4 q, real3 v, real3 w, real3 offset) {
    real3 origin = c + quatRotate(q, offset);
    return BodyShapeFrame(origin, v + cross(w, origin - c));
}

// R I_ref R^T w, without forming R: rotate w into the body frame, apply the
// body-frame tensor, rotate back.
real3 worldTensorTimes(real4 q, real3x3 bodyTensor, real3 w) {
    return quatRotate(q, bodyTensor * quatRotateInverse(q, w));
}

// The cross-product matrix [r]x (so [r]x a = r x a), built from its columns.
real3x3 crossMatrix(real3 r) {
    return real3x3(real3(0, r.z, -r.y), real3(-r.z, 0, r.x), real3(r.y, -r.x, 0));
}

// R T R^T as a matrix, for a body-frame tensor T.
real3x3 worldTensor(real4 q, real3x3 bodyTensor) {
    return real3x3(worldTensorTimes(q, bodyTensor, real3(1, 0, 0)), worldTensorTimes(q, bodyTensor, real3(0, 1, 0)),
                   worldTensorTimes(q, bodyTensor, real3(0, 0, 1)));
}

// I^-1 = R I_ref^-1 R^T as a matrix (the impulse solve needs it whole).
real3x3 worldInverseInertia(real4 q, real3x3 inverseInertiaRef) {
    return worldTensor(q, inverseInertiaRef);
}

// The gyroscopic step of a torque-free body in its own frame: Euler's
// equation I dw/dt = -w x I w by the implicit midpoint rule,
//   I (w1 - w0) = -h m x I m,   m = (w0 + w1) / 2,
// solved for m by Newton's method (Jacobian 2 I + h ([m]x I - [I m]x)),
// three steps from m = w0: the residual falls from O(h |w|) to O((h |w|)^8),
// below float rounding for any h |w| < 1. The rule conserves both quadratic
// invariants, the energy w . I w and |I w| (dot the equation with m and with
// I m), so the step neither gains nor loses energy or angular momentum, where
// the explicit w += h I^-1 (-w x I w) gains both (Catto, "Numerical Methods",
// GDC 2015). withEnergyOf (below) holds the energy against float rounding.
real3 gyroscopicStep(real3 w0, real3x3 inertia, real h) {
    real3 m = w0;
    for (uint k = 0u; k < 3u; ++k) {
        real3 momentum = inertia * m;
        real3 residual = real(2) * (inertia * (m - w0)) + h * cross(m, momentum);
        real3x3 jacobian = real(2) * inertia + h * (crossMatrix(m) * inertia - crossMatrix(momentum));
        m = m - inverse(jacobian) * residual;
    }
    return real(2) * m - w0;
}

// w1 scaled to the kinetic energy of w0, both world angular velocities of a
// body at orientation q, the energy w . R I R^T w taken through the same
// rotations for both. The step into the body frame and back scales w by
// |q|^4, which renormalising the quaternion every substep holds near 1 but
// not at 1, and with the same rounding substep after substep; taking the
// ratio through the same rotations cancels the factor (it made the energy
// drift about three times faster). The scaling also keeps a step whose
// Newton iteration has not converged (h |w| far above 1) from adding energy.
real3 withEnergyOf(real3 w1, real3 w0, real4 q, real3x3 inertiaRef) {
    real before = dot(w0, worldTensorTimes(q, inertiaRef, w0));
    real after = dot(w1, worldTensorTimes(q, inertiaRef, w1));
    return after > real(0) ? w1 * sqrt(before / after) : w1;
}

// Steps 1 and 2 of a substep: v += h g (gravity acts at the centre of mass,
// so no torque), the gyroscopic step of omega in the body frame (above)
// at the energy omega had, then the damping factors. `gyroscopic` false drops the step (then a
// torque-free body keeps omega, not I omega). A body of infinite mass
// (inverseMass 0) does not fall.
BodyVelocity integrateBodyVelocity(real3 v, real3 w, real4 q, real3x3 inertiaRef, real inverseMass, real3 gravity,
                                   real h, real linearDamping, real angularDamping, bool gyroscopic) {
    if (inverseMass > real(0)) v = v + h * gravity;
    if (gyroscopic)
        w = withEnergyOf(quatRotate(q, gyroscopicStep(quatRotateInverse(q, w), inertiaRef, h)), w, q, inertiaRef);
    v = v * max(real(0), real(1) - linearDamping * h);
    w = w * max(real(0), real(1) - angularDamping * h);
    return BodyVelocity(v, w);
}

// The velocities step 3 moves the body with, from those at the start of the
// substep and at its end (after the contacts): symplectic Euler the end
// ones; the mid-point rule (the seed's x1 = x0 + h v_1/2) their mean.
BodyVelocity movingVelocity(BodyVelocity start, BodyVelocity end, bool midpoint) {
    if (!midpoint) return end;
    return BodyVelocity(real(0.5) * (start.linear + end.linear), real(0.5) * (start.angular + end.angular));
}

// Step 3: q += [0, h w / 2] q, then normalised. [0, u] q has vector part
// q_w u + u x q_v and scalar part -u . q_v. The result is d q with
// d = normalise(u, 1): a rotation by 2 atan(|u|) about u (the Cayley map).
real4 integrateRotation(real4 q, real3 w, real h) {
    real3 u = real(0.5) * h * w;
    real3 qv = real3(q.x, q.y, q.z);
    real3 dv = q.w * u + cross(u, qv);
    real4 next = real4(q.x + dv.x, q.y + dv.y, q.z + dv.z, q.w - dot(u, qv));
    return next / length(next);
}

// The world angular velocity `w` carried along by step 3's rotation d about
// `wMove` (integrateRotation): w turns with the body, so its body-frame
// value, and with it the energy and |I w|, stays what the velocity update
// made it. Symplectic Euler turns w about itself (wMove = w), which leaves
// it as it is; the mid-point rule turns it about the mean velocity. The
// result keeps |w| (a rotation's float rounding scales it by |d|^2).
real3 carriedAngularVelocity(real3 w, real3 wMove, real h) {
    real3 u = real(0.5) * h * wMove;
    real4 d = real4(u.x, u.y, u.z, real(1));
    real3 turned = quatRotate(d / length(d), w);
    real turnedLength = length(turned);
    return turnedLength > real(0) ? turned * (length(w) / turnedLength) : turned;
}

// The restitution a contact approaching at `approachSpeed` (> 0) bounces
// with: the full mu_N from twice the resting speed up, fading linearly to 0
// at the resting speed (the seed's remedy for a body that would otherwise
// jitter on the ground: a body at rest approaches at about g h per substep).
real fadedRestitution(real restitution, real approachSpeed, real restingSpeed) {
    return restitution * clamp(approachSpeed / restingSpeed - real(1), real(0), real(1));
}

// How an impulse j at world offset r from the centre of mass changes that
// point's velocity: by K j, K = (1/m) I - [r]x I^-1 [r]x. A contact
// between two bodies at offsets rA and rB (+j on A, -j on B) changes their
// relative velocity there by (K_A + K_B) j.
real3x3 contactMatrix(real inverseMass, real3x3 inverseInertia, real3 r) {
    real3x3 rx = crossMatrix(r);
    return inverseMass * real3x3(real(1)) - rx * inverseInertia * rx;
}

// The impulse of one contact whose sides' relative velocity is `v`
// (v . n = vN < 0), with K the contact's matrix (above) and n its unit
// normal; the materials combined as Box2D does, each friction coefficient
// (static mu_s, kinetic mu_k) sqrt(mu_a mu_b), restitution max(mu_a, mu_b). Box2D's two impulses, one after the other:
//   - normal: lambda n, lambda = (bounceSpeed - vN) / (n . K n), which
//     gives the normal velocity bounceSpeed; along n alone, so it does no
//     work along the tangent (the impulse that set the whole wanted velocity
//     at once, K^-1 dv, was not along n where r is off the normal, and
//     spun off-centre impacts up: +1.1% energy for two elastic balls);
//   - friction: against the tangential velocity u_T left after it, the
//     impulse that stops it along t = u_T / |u_T|, |u_T| / (t . K t),
//     while that lies inside the static cone mu_s lambda; else the kinetic
//     mu_k lambda (Coulomb, on the impulses: frictionMagnitude).
// The bounce reverses the normal velocity the point had at the start of the
// substep, `startVN` (Box2D v3's relative velocity of a contact, taken
// before the step's gravity and impulses): reversing vN would send this
// substep's gravity h g back up with it, a gain of about |v| h in height at
// every bounce. The restitution fades by that start speed, and the bounce is
// at most the speed the point arrives with, -vN. Neither impulse adds
// kinetic energy: an impulse s d changes it by s (d . v) + s^2 (d . K d) / 2,
// which is <= 0 for the normal one because bounceSpeed <= -vN, and for the
// friction one because it stops at most the whole of u_T.
struct ContactMaterial {
    real friction;        // kinetic mu_k
    real staticFriction;  // static mu_s >= friction
    real restitution;
};

real3 contactImpulse(real3x3 K, real3 v, real3 n, real vN, real startVN, ContactMaterial a, ContactMaterial b,
                     real restingSpeed) {
    real startSpeed = max(-startVN, real(0));
    real restitution = fadedRestitution(max(a.restitution, b.restitution), startSpeed, restingSpeed);
    real bounceSpeed = restitution * min(startSpeed, -vN);
    real normalImpulse = (bounceSpeed - vN) / dot(n, K * n);
    real3 j = normalImpulse * n;
    real3 u = v + K * j;
    real3 uT = u - dot(u, n) * n;
    real slip = length(uT);
    if (slip > real(0)) {
        real3 t = uT / slip;
        j = j - frictionMagnitude(slip / dot(t, K * t), normalImpulse, sqrt(a.staticFriction * b.staticFriction),
                                  sqrt(a.friction * b.friction)) * t;
    }
    return j;
}

// The impulse j at world offset r that changes that point's velocity by dv
// in every direction, K j = dv (a dragged body's grabbed point).
real3 velocityChangeImpulse(real inverseMass, real3x3 inverseInertia, real3 r, real3 dv) {
    return inverse(contactMatrix(inverseMass, inverseInertia, r)) * dv;
}

// The penalty force of one contact point at signed distance phi (minus the
// collider's thickness) from a collider, along its unit normal n; zero
// outside the buffer zone phi >= zone. Quadratic (the energy
// k (zone - phi)^2 / 2): k (zone - phi). Log-barrier: rho (1/phi - 1/zone),
// the seed's rho / phi shifted to vanish at the edge of the zone
// (continuous there) and growing without bound as phi -> 0; a point already
// inside (phi <= phiMin) gets the force at phiMin.
real penaltyMagnitude(uint model, real phi, real zone, real stiffness, real strength) {
    if (!(phi < zone)) return real(0);
    if (model == kRigidContactQuadratic) return stiffness * (zone - phi);
    real phiMin = real(1e-4) * zone;
    return strength * (real(1) / max(phi, phiMin) - real(1) / zone);
}

// The velocity change a dragged point needs: its velocity becomes
// (target - x) / time, so it closes on the target exponentially (BodyDrag).
real3 dragVelocityChange(real3 x, real3 vPoint, real3 target, real time) {
    return (target - x) / time - vPoint;
}

// Two-way coupling (docs/physics.md §11): the body (inverse mass, world
// inertia about its centre c) and the particles that touched it in the
// substep share the momentum j (its moment about c: torque) the particles
// gave it, as one rigid aggregate. Of the particles: mass their sum of m,
// moment their sum of m r, spread their sum of m (|r|^2 1 - r r^T), r the
// offset from c. The aggregate's velocity change (dV at c, dw) solves
//     M_a dV + dw x s = j,     I_a dw + s x dV = torque
// (its linear and angular momentum about c), M_a = M + mass, I_a = I +
// spread, s = moment. Eliminating dV leaves (I_a + [s]x[s]x / M_a) dw =
// torque - s x j / M_a, whose matrix is the aggregate's inertia about its
// own centre of mass (the parallel-axis theorem): positive definite.
BodyVelocity aggregateVelocityChange(real inverseMass, real3x3 inertia, real3 j, real3 torque, real mass,
                                     real3 moment, real3x3 spread) {
    real totalMass = real(1) / inverseMass + mass;
    real3x3 sx = crossMatrix(moment);
    real3 dw = inverse(inertia + spread + sx * sx / totalMass) * (torque - cross(moment, j) / totalMass);
    return BodyVelocity((j - cross(dw, moment)) / totalMass, dw);
}

// The body's velocities after impulse j at world offset r.
BodyVelocity applyImpulse(BodyVelocity body, real inverseMass, real3x3 inverseInertia, real3 r, real3 j) {
    return BodyVelocity(body.linear + inverseMass * j, body.angular + inverseInertia * cross(r, j));
}

#endif
