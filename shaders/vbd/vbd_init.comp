#version 460
// docs/physics.md §16, "Initial guess": vertex block descent's starting
// iterate, per particle of the range. Reads y (predict's p), predict's
// velocity u and the u this pass saw the substep before (w = 1 once seen;
// w = 0 after a build or reset: no previous step, so the inertial guess),
// then keeps u for the next substep. "adaptive": y moved back along gravity
// by what the last step's acceleration did not show of it
// (vbd/vbd_guess.glsl); "inertial": y.
#include "shared/kernel.glsl"
#include "vbd/vbd_types.h"
#include "vbd/vbd_guess.glsl"

layout(push_constant) uniform Push { VbdPush pc; };
layout(std430, binding = 0) readonly buffer Inertia { vec4 inertia[]; };  // y, w = inverse mass
layout(std430, binding = 1) readonly buffer Velocities { vec4 velocities[]; };  // predict's u
layout(std430, binding = 2) writeonly buffer Iterate { vec4 iterate[]; };
layout(std430, binding = 3) buffer Previous { vec4 previousVelocities[]; };  // u of the last init; w: seen
layout(std430, binding = 4) readonly buffer Drags { float drags[]; };  // sigma [kg/s]
layout(std430, binding = 5) readonly buffer Gravities { vec4 particleGravities[]; };  // model/shared_model.h
vec4 ownGravity(uint i) { return particleGravities[i]; }
#include "particle/particle_gravity.glsl"

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    vec4 y = inertia[i];
    vec3 u = velocities[i].xyz;
    vec4 previous = previousVelocities[i];
    previousVelocities[i] = vec4(u, 1.0);
    vec3 x = y.xyz;
    if (pc.initialGuess == kVbdGuessAdaptive && previous.w != 0.0 && y.w > 0.0) {
        float s = vbdPredictScale(y.w, pc.damping, drags[i], pc.dt);
        vec3 g = particleGravity(vec4(pc.gravityX, pc.gravityY, pc.gravityZ, float(pc.gravityFlags)), i);
        x = vbdAdaptiveGuess(y.xyz, u, previous.xyz, g, s, pc.dt);
    }
    iterate[i] = vec4(x, y.w);
}
