#version 460
// docs/physics.md §1, step 6 and docs/physics.md §3: friction and restitution for particles the
// collision projection pushed out of a collider this substep, one thread per
// particle (particle/collider_stages.glsl).
#include "shared/kernel.glsl"

layout(push_constant) uniform Push { ParticlePush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) buffer Velocities { vec4 velocities[]; };
layout(binding = 2) uniform usamplerBuffer colliderTexels;  // particle/collider_texels.glsl
#include "particle/collider_texels.glsl"
layout(std430, binding = 3) readonly buffer Contacts { ParticleContact contacts[]; };
layout(std430, binding = 4) readonly buffer MeshSdfGrids { float meshSdfGrids[]; };
layout(std430, binding = 5) buffer BodyPushes { BodyPush bodyPushes[]; };
layout(std430, binding = 6) readonly buffer Gravities { vec4 particleGravities[]; };  // model/shared_model.h
layout(std430, binding = 7) readonly buffer Copies { uvec2 copies[]; };  // each particle's batch copy, its index in it
vec4 ownGravity(uint i) { return particleGravities[i]; }
#include "particle/particle_gravity.glsl"
float meshSdfGridValue(uint index) { return meshSdfGrids[index]; }  // for sdf.glsl's mesh colliders
#include "math/quaternion.glsl"
#include "math/sdf.glsl"
#include "particle/collider_stages.glsl"

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    ParticleContact contact = contacts[i];
    if (contact.touching == 0u) return;
    vec3 x = positions[i].xyz;  // world positions: origin 0
    uint nearest = nearestTouching(x, contact.touching, copies[i].x, vec3(0.0));
    vec3 before = velocities[i].xyz;
    float threshold = particleRestitutionThreshold(pc.gravity, pc.restitutionThreshold, pc.dt, i);
    vec3 v = contactResponseWith(nearest, x, before, contact, pc.stencilStep, threshold, vec3(0.0),
                                 pc.colliderFrictionInSolve, pc.dt);
    velocities[i] = vec4(v, 0.0);
    // A body's friction and restitution: its share of the momentum too.
    BodyPush record = bodyPushes[i];
    if (record.collider == nearest) {
        vec3 delta = pc.dt * (v - before);
        bodyPushes[i] = BodyPush(record.pushX + delta.x, record.pushY + delta.y, record.pushZ + delta.z, nearest);
    }
}
