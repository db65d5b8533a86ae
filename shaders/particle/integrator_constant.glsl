// The integrator of predict.comp and update_velocity.comp, fixed when their
// pipeline is built (step/particle_stages.cpp builds one per integrator a
// solver asks for): a CPU driver runs every side of a runtime `if` under a
// mask (docs/physics.md §2, "Only the world's shapes are compiled in"), so a
// PBD range paid for the explicit integrators' arithmetic and for the loads
// and stores of their accelerations and stage. A constant folds the
// branches away. The default, kIntegratorFromPush, reads the push constant,
// so a pipeline built without the constant still integrates right. The
// includer declares `pc` (a ParticlePush) and `particleIntegrators[]` (the
// per-particle integrators of kIntegratorPerParticle) first.
#ifndef VKSIM_INTEGRATOR_CONSTANT_GLSL
#define VKSIM_INTEGRATOR_CONSTANT_GLSL

layout(constant_id = kIntegratorConstantId) const uint kIntegrator = kIntegratorFromPush;

uint particleIntegrator(uint i) {
    uint integrator = kIntegrator == kIntegratorFromPush ? pc.integrator : kIntegrator;
    return integrator == kIntegratorPerParticle ? particleIntegrators[i] : integrator;
}

#endif
