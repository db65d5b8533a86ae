#version 460
// docs/physics.md §1, step 5: v = (p - x) / h (positionBasedVelocity), x = p; for the explicit
// integrators of forces (§9.2) their velocity rule instead; the integrator
// is a constant of the pipeline (particle/integrator_constant.glsl).
#include "shared/kernel.glsl"
#include "particle/particle_math.glsl"

layout(push_constant) uniform Push { ParticlePush pc; };
layout(std430, binding = 0) buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 2) buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 3) readonly buffer Accelerations { vec4 accelerations[]; };
layout(std430, binding = 4) buffer Stage { vec4 stage[]; };
layout(std430, binding = 5) readonly buffer Integrators { uint particleIntegrators[]; };  // kIntegratorPerParticle
#include "particle/integrator_constant.glsl"

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    vec4 x = positions[i];
    vec4 p = predicted[i];
    const uint integrator = particleIntegrator(i);
    if (integrator == kIntegratorSymplecticEuler) {
        velocities[i] = vec4(positionBasedVelocity(x.xyz, p.xyz, velocities[i].xyz, pc.dt), 0.0);
        positions[i] = vec4(p.xyz, x.w);
        return;
    }
    ParticleStep s = updateParticle(integrator, x.xyz, p.xyz, velocities[i].xyz, accelerations[i].xyz, stage[i],
                                    pc.dt);
    velocities[i] = vec4(s.velocity, 0.0);
    positions[i] = vec4(s.position, x.w);
    stage[i] = s.stage;
}
