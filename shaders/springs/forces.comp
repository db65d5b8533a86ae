#version 460
// docs/physics.md §9.1-9.2: the acceleration of every particle of the range
// for the explicit integrators, a = g (+ the wind's, §15) + (f_springs + f_bending - sigma v)/m
// (0 for a pinned particle), evaluated at x, at p, or at the midpoint
// x + h/2 v^0 (pc.evaluateAt), with the particle's current velocity; or, for
// objects on different integrators, where each particle's own integrator
// evaluates its second stage (kForcesAtEachIntegrator).
#include "shared/kernel.glsl"
#include "springs/spring_types.h"

layout(push_constant) uniform Push { MsForcePush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 2) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 3) readonly buffer Stage { vec4 stage[]; };
layout(std430, binding = 4) writeonly buffer Accelerations { vec4 accelerations[]; };
layout(std430, binding = 5) readonly buffer Integrators { uint particleIntegrators[]; };  // kIntegrator*

#define MS_TOPOLOGY_BINDING 6
#define MS_WITH_HINGES
#include "springs/gather.glsl"
// The wind's acceleration (particle/wind_forces.comp, evaluated at the
// substep's start), added to gravity where pc.gravity.w flags kGravityWind.
layout(std430, binding = 12) readonly buffer WindAccelerations { vec4 windAccelerations[]; };
layout(std430, binding = 13) readonly buffer Gravities { vec4 particleGravities[]; };  // model/shared_model.h
vec4 ownGravity(uint i) { return particleGravities[i]; }
#include "particle/particle_gravity.glsl"

uint evaluateAt;  // kForcesAt*: pc.evaluateAt, or this particle's integrator's second stage

vec3 elementPosition(uint j) {
    if (evaluateAt == kForcesAtPredicted) return predicted[j].xyz;
    if (evaluateAt == kForcesAtMidpoint) return positions[j].xyz + 0.5 * pc.dt * stage[j].xyz;
    return positions[j].xyz;
}

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint r = gl_GlobalInvocationID.x;
    uint i = pc.firstParticle + r;
    evaluateAt = pc.evaluateAt;
    if (evaluateAt == kForcesAtEachIntegrator) {
        uint integrator = particleIntegrators[i];
        if (integrator == kIntegratorVelocityVerlet) evaluateAt = kForcesAtPredicted;
        else if (integrator == kIntegratorMidpoint) evaluateAt = kForcesAtMidpoint;
        else return;  // no second stage: the update reads a(x)
    }
    float inverseMass = positions[i].w;
    if (inverseMass <= 0.0) {
        accelerations[i] = vec4(0.0);
        return;
    }
    MsParticle particle = msParticles[r];
    vec3 xi = elementPosition(i);
    vec3 f = conservativeForce(i, particle, xi) + hingeForce(particle) - particle.drag * velocities[i].xyz;
    vec3 g = particleGravity(pc.gravity, i);
    if (gravityFlagged(pc.gravity, kGravityWind)) g = g + windAccelerations[i].xyz;
    accelerations[i] = vec4(g + inverseMass * f, 0.0);
}
