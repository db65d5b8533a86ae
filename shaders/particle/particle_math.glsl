// The math of the shared particle stages (prediction and the SDF collision
// projection), used by every solver that steps particles and by the CPU
// reference. Shared math: see math/real_glsl.h for the rules.
#ifndef VKSIM_PARTICLE_MATH_GLSL
#define VKSIM_PARTICLE_MATH_GLSL

// docs/physics.md §1, steps 1-2: v + h g, damped by max(0, 1 - damping h),
// and the air drag f = -sigma v taken implicitly, over 1 + h sigma w (a
// free particle's v decays by (1 + h sigma/m)^-n, stable for every sigma and
// h); 0 for a pinned particle (inverse mass 0), which does not move. The
// predicted position is x + h times it. (Without drag nothing is divided:
// the same bits as before drag existed.)
real3 predictedVelocity(real3 v, real inverseMass, real3 gravity, real damping, real drag, real dt) {
    if (inverseMass <= real(0)) return real3(0);
    real3 damped = (v + dt * gravity) * max(real(0), real(1) - damping * dt);
    if (drag > real(0)) damped = damped / (real(1) + dt * drag * inverseMass);
    return damped;
}

// SDF collision, an inequality C = f(p) - thickness >= 0 projected only while
// violated: dp = -C grad f / |grad f|^2 (stiffness 1; the inverse mass cancels
// because only one particle moves).
real3 solveCollision(real C, real3 gradF) {
    real g2 = dot(gradF, gradF);
    if (C >= real(0) || g2 <= real(0)) return real3(0);
    return -C * gradF / g2;
}

// The explicit integrators of forces (docs/physics.md §9.2), one particle at
// a time, split across the predict and update-velocity stages; `a` is the
// acceleration of the solver's force pass (zero for a pinned particle) and
// `stage` what predict leaves for the update in the integrator stage buffer
// (w = 1 marks position Verlet's last drift velocity as set). v is first scaled by
// max(0, 1 - damping h), the velocity-scaling damping of the seeds.
struct ParticleStep {
    real3 position;  // predict: p; update: the new x
    real3 velocity;
    real4 stage;
};

// x + h u: predict's drift, recomputed bit for bit by the update (the same
// operations on the same floats) to tell what the collision projection or a
// drag moved.
real3 driftedPosition(real3 x, real3 u, real h) { return x + h * u; }

// The position-based velocity update, v = (p - x)/h, for the solvers whose
// unknowns are positions (PBD, projective dynamics, implicit Euler, vertex
// block descent): written as the velocity predict drifted by, u, plus what
// the solve and the projection moved p away from x + h u, over h. The two
// are equal in exact arithmetic; in float the second keeps u's bits where
// nothing moved p, so the rounding of p to ulp(|x|) (6.1e-5 m at 1 km) is
// not turned into a velocity error of ulp(|x|)/h every substep
// (docs/physics.md §9.2, "Far from the origin").
real3 positionBasedVelocity(real3 x, real3 p, real3 u, real h) { return u + (p - driftedPosition(x, u, h)) / h; }

ParticleStep predictParticle(uint integrator, real3 x, real3 v0, real3 a, real4 stage, real damping, real h) {
    real3 v = v0 * max(real(0), real(1) - damping * h);
    if (integrator == kIntegratorExplicitEuler) {
        return ParticleStep(driftedPosition(x, v, h), v + h * a, real4(v, real(0)));
    }
    if (integrator == kIntegratorVelocityVerlet) {
        real3 halfKick = v + real(0.5) * h * a;
        return ParticleStep(driftedPosition(x, halfKick, h), halfKick, stage);
    }
    if (integrator == kIntegratorMidpoint) {
        // v_mid = v + h/2 a(x); x^1 = x + h v_mid; the force pass then
        // evaluates a at x + h/2 v (kept in stage) with velocity v_mid.
        real3 mid = v + real(0.5) * h * a;
        return ParticleStep(driftedPosition(x, mid, h), mid, real4(v, real(0)));
    }
    if (integrator == kIntegratorPositionVerlet) {
        // x^1 = 2x - x^{n-1} + h^2 a = x + h (d + h a), with d = (x - x^{n-1})/h
        // the last drift velocity, kept in the stage instead of x^{n-1} so
        // that no position is differenced (docs/physics.md §9.2, "Far from
        // the origin"). Without it (first step, reset), x^{n-1} = x - h v: d = v.
        real3 d = stage.w > real(0) ? real3(stage.x, stage.y, stage.z) : v0;
        real3 drift = d * max(real(0), real(1) - damping * h) + h * a;
        return ParticleStep(driftedPosition(x, drift, h), drift, real4(d, real(1)));
    }
    // kIntegratorForceSymplecticEuler
    real3 kicked = v + h * a;
    return ParticleStep(driftedPosition(x, kicked, h), kicked, stage);
}

// After the solve and the collision projection: p is the new position (moved
// out of colliders), v what predict left, a the force pass's last
// acceleration. The velocity is integrated, never rebuilt as (p - x)/h: far
// from the origin p and x are rounded to ulp(|x|), and (p - x)/h would turn
// that rounding into a velocity error of ulp(|x|)/h every step
// (docs/physics.md §9.2, "Far from the origin"). What the projection (or the
// mouse) moved, p - (x + h u) with u the velocity predict drifted by, is
// added to the velocity over h, as the position-based update does; it is
// exactly zero where nothing moved p, because driftedPosition repeats
// predict's arithmetic.
ParticleStep updateParticle(uint integrator, real3 x, real3 p, real3 v, real3 a, real4 stage, real h) {
    real3 s = real3(stage.x, stage.y, stage.z);
    if (integrator == kIntegratorExplicitEuler) {
        // v holds v + h a(x); predict drifted by s.
        return ParticleStep(p, v + (p - driftedPosition(x, s, h)) / h, real4(0));
    }
    if (integrator == kIntegratorVelocityVerlet) {
        return ParticleStep(p, v + (p - driftedPosition(x, v, h)) / h + real(0.5) * h * a, stage);
    }
    if (integrator == kIntegratorMidpoint) {
        // v^1 = v^0 + h a(mid), v^0 kept in the stage, v = v_mid.
        return ParticleStep(p, s + h * a + (p - driftedPosition(x, v, h)) / h, real4(0));
    }
    if (integrator == kIntegratorPositionVerlet) {
        // The central difference (x^1 - x^{n-1})/2h at x^n, as the mean of the
        // two drift velocities; v holds the new one, (x^1 - x)/h.
        real3 drift = positionBasedVelocity(x, p, v, h);
        return ParticleStep(p, real(0.5) * (s + drift), real4(drift, real(1)));
    }
    // kIntegratorForceSymplecticEuler
    return ParticleStep(p, positionBasedVelocity(x, p, v, h), stage);
}

#endif
