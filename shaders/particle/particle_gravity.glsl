// The gravity a particle feels, and the restitution threshold that follows
// from it: the push's (ParticlePush::gravity and restitutionThreshold), or,
// where the push's gravity.w flags kGravityPerParticle, the particle's own:
// the copies of a batch that vary /solver/gravity (docs/python.md, "Many
// worlds in one submission"). A particle's own value is the one its copy's
// World puts in the push, so both give the same bits. The includer defines
// `vec4 ownGravity(uint i)` first: particle i's own (xyz g [m/s^2], w 2|g|
// as the C++ side rounds it, particleGravities), read only where flagged
// (the particle store's buffer of them is one vec4 otherwise).
#ifndef VKSIM_PARTICLE_GRAVITY_GLSL
#define VKSIM_PARTICLE_GRAVITY_GLSL

bool gravityFlagged(vec4 pushGravity, uint flag) { return (uint(pushGravity.w) & flag) != 0u; }

vec3 particleGravity(vec4 pushGravity, uint i) {
    return gravityFlagged(pushGravity, kGravityPerParticle) ? ownGravity(i).xyz : pushGravity.xyz;
}

// Stepper::particlePush's 2 |g| h: the product of the same two floats.
float particleRestitutionThreshold(vec4 pushGravity, float threshold, float dt, uint i) {
    return gravityFlagged(pushGravity, kGravityPerParticle) ? ownGravity(i).w * dt : threshold;
}

#endif
