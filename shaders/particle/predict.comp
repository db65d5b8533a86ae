#version 460
// docs/physics.md §1, steps 1-2: external forces (gravity, the wind: §15), damping, air drag, predicted position
// p = x + h v, by the integrator the range's solver chose (pc.integrator):
// symplectic Euler with gravity for PBD, projective dynamics and the
// implicit mass-spring methods; the explicit integrators of forces (§9.2)
// for the explicit mass-spring methods, from the accelerations their force
// pass wrote, or each particle's own where objects differ
// (kIntegratorPerParticle). The integrator is a constant of the pipeline
// (particle/integrator_constant.glsl). p is relative to the range's origin
// (ParticlePush::origin*).
#include "shared/kernel.glsl"
#include "particle/particle_math.glsl"

layout(push_constant) uniform Push { ParticlePush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 2) writeonly buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 3) readonly buffer Accelerations { vec4 accelerations[]; };
layout(std430, binding = 4) buffer Stage { vec4 stage[]; };
layout(std430, binding = 5) readonly buffer Drags { float drags[]; };  // sigma [kg/s], PBD and PD particles
layout(std430, binding = 6) readonly buffer Integrators { uint particleIntegrators[]; };  // kIntegratorPerParticle
// The wind's acceleration (particle/wind_forces.comp), added to gravity
// where pc.gravity.w flags kGravityWind (the wind blows); not read
// otherwise, so that still air leaves every bit as it was.
layout(std430, binding = 7) readonly buffer WindAccelerations { vec4 windAccelerations[]; };
layout(std430, binding = 8) readonly buffer Gravities { vec4 particleGravities[]; };  // model/shared_model.h
vec4 ownGravity(uint i) { return particleGravities[i]; }
#include "particle/integrator_constant.glsl"
#include "particle/particle_gravity.glsl"

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    vec4 x = positions[i];
    x.xyz -= vec3(pc.originX, pc.originY, pc.originZ);
    const uint integrator = particleIntegrator(i);
    if (integrator == kIntegratorSymplecticEuler) {
        vec3 g = particleGravity(pc.gravity, i);
        if (gravityFlagged(pc.gravity, kGravityWind)) g = g + windAccelerations[i].xyz;
        vec3 v = predictedVelocity(velocities[i].xyz, x.w, g, pc.damping, drags[i], pc.dt);
        velocities[i] = vec4(v, 0.0);
        predicted[i] = vec4(driftedPosition(x.xyz, v, pc.dt), x.w);
        return;
    }
    ParticleStep s = predictParticle(integrator, x.xyz, velocities[i].xyz, accelerations[i].xyz, stage[i],
                                     pc.damping, pc.dt);
    velocities[i] = vec4(s.velocity, 0.0);
    predicted[i] = vec4(s.position, x.w);
    stage[i] = s.stage;
}
