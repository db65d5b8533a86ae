#version 460
// docs/physics.md §1, step 5: v = (p - x) / h (positionBasedVelocity), x = O + p; for the explicit
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
    // p is relative to the range's origin O; x - O is exact near it.
    const vec3 origin = vec3(pc.originX, pc.originY, pc.originZ);
    vec4 x = positions[i];
    vec3 relative = x.xyz - origin;
    vec4 p = predicted[i];
    const uint integrator = particleIntegrator(i);
    if (integrator == kIntegratorSymplecticEuler) {
        velocities[i] = vec4(positionBasedVelocity(relative, p.xyz, velocities[i].xyz, pc.dt), 0.0);
        positions[i] = vec4(origin + p.xyz, x.w);
        return;
    }
    ParticleStep s = updateParticle(integrator, relative, p.xyz, velocities[i].xyz, accelerations[i].xyz, stage[i],
                                    pc.dt);
    velocities[i] = vec4(s.velocity, 0.0);
    positions[i] = vec4(origin + s.position, x.w);
    stage[i] = s.stage;
}
