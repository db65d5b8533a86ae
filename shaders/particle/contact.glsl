// Velocity of a particle in contact, after the positional solve (docs/physics.md §3).
// Shared math: see math/real_glsl.h for the rules. Its includer includes
// math/coulomb_friction.glsl first.
#ifndef VKSIM_CONTACT_GLSL
#define VKSIM_CONTACT_GLSL

// v: velocity from the solve; n: unit contact normal; approachSpeed: v.n
// before the solve (< 0: moving into the surface); normalSpeed: the normal
// velocity the collision stages gave the particle over the substep (its
// pushedOut / h, ParticleContact), the normal of its friction.
// Restitution: the normal velocity becomes -mu_N * approachSpeed (never less
// than what the solve left), except below restitutionThreshold where a resting
// contact would otherwise jitter. Coulomb friction scales the tangential
// velocity by a = max(1 - mu_T (1 + mu_N) normalSpeed / |v_T|, 0), never
// reversing it. For a particle that nothing but its own weight presses on
// the surface normalSpeed is -approachSpeed; a solid's bottom vertex carries
// the weight above it too.
real3 contactVelocity(real3 v, real3 n, real approachSpeed, real normalSpeed, real friction, real restitution,
                      real restitutionThreshold) {
    if (approachSpeed >= real(0) && normalSpeed <= real(0)) return v;
    real vn = dot(v, n);
    real3 vt = v - vn * n;
    real vnAfter = vn;
    if (-approachSpeed > restitutionThreshold) vnAfter = max(vn, -restitution * approachSpeed);
    real vtLength = length(vt);
    real a = real(0);
    if (vtLength > real(0))
        a = max(real(1) - friction * (real(1) + restitution) * normalSpeed / vtLength, real(0));
    return a * vt + vnAfter * n;
}

// Static friction at the position level (Macklin et al. 2014, §6.1): a
// collision projection that pushed a particle out by `depth` along the unit
// normal n also undoes its slip, its displacement over the substep relative
// to the surface (`slip`, less its normal part), while that lies inside the
// static friction cone, |slip_t| <= mu_s depth (frictionSticks,
// math/coulomb_friction.glsl). Else it leaves it: the particle slides, and
// contactVelocity applies the kinetic friction mu_k after the solve.
// Without it a particle held by friction creeps by the tangential part of
// each substep's drift, g sin(theta) h^2 on a slope, which the velocity-level
// law stops only after the position moved. Returns the correction.
real3 staticFriction(real3 slip, real3 n, real depth, real muStatic) {
    real3 tangential = slip - dot(slip, n) * n;
    if (frictionSticks(length(tangential), depth, muStatic)) return -tangential;
    return real3(0);
}

// Coulomb friction as a correction of a contact's position (Ly, Jouve &
// Bertails-Descoubes 2020, projective dynamics with dry friction): pushed
// out by `depth` along the unit normal n, slipped by `slip` over the substep
// relative to the surface, the tangential slip is undone inside the static
// cone and cut by mu_k depth outside it (frictionMagnitude,
// math/coulomb_friction.glsl). Projective dynamics' collision targets
// (pd/local_collisions.comp): the closeness constraint then pulls with a
// tangential force of at most mu times its normal one.
real3 coulombCorrection(real3 slip, real3 n, real depth, real muStatic, real muKinetic) {
    real3 tangential = slip - dot(slip, n) * n;
    real slipLength = length(tangential);
    if (!(slipLength > real(0))) return real3(0);
    if (frictionSticks(slipLength, depth, muStatic)) return -tangential;
    return tangential * (-frictionMagnitude(slipLength, depth, muStatic, muKinetic) / slipLength);
}

// The velocity of the surface point x of a collider whose frame has origin
// `origin`, linear velocity `linear` and angular velocity `angular`.
real3 colliderPointVelocity(real3 linear, real3 angular, real3 origin, real3 x) {
    return linear + cross(angular, x - origin);
}

// contactVelocity relative to a surface moving at vc: friction drags the
// particle towards the surface's velocity and restitution reverses the
// relative normal velocity. approachSpeed is (v - vc).n before the solve.
// A surface at rest (vc exactly zero) gives contactVelocity's result bit
// for bit (adding a zero would turn a -0 component into +0).
real3 movingContactVelocity(real3 v, real3 vc, real3 n, real approachSpeed, real normalSpeed, real friction,
                            real restitution, real restitutionThreshold) {
    if (vc == real3(0))
        return contactVelocity(v, n, approachSpeed, normalSpeed, friction, restitution, restitutionThreshold);
    return contactVelocity(v - vc, n, approachSpeed, normalSpeed, friction, restitution, restitutionThreshold) + vc;
}

#endif
