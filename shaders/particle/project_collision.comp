#version 460
// docs/physics.md §1: projection of the SDF collision constraints C = f(p) - thickness >= 0
// of each particle's candidate colliders. One thread per particle, so no two
// threads touch the same particle (particle/collider_stages.glsl).
#include "shared/kernel.glsl"

layout(push_constant) uniform Push { ParticlePush pc; };
layout(std430, binding = 0) buffer Predicted { vec4 predicted[]; };
layout(binding = 1) uniform usamplerBuffer colliderTexels;  // particle/collider_texels.glsl
#include "particle/collider_texels.glsl"
layout(std430, binding = 2) buffer Contacts { ParticleContact contacts[]; };
layout(std430, binding = 3) readonly buffer MeshSdfGrids { float meshSdfGrids[]; };
layout(std430, binding = 4) buffer BodyPushes { BodyPush bodyPushes[]; };
layout(std430, binding = 5) readonly buffer Positions { vec4 positions[]; };  // x, world: the substep's start
layout(std430, binding = 6) readonly buffer Copies { uvec2 copies[]; };  // each particle's batch copy, its index in it
float meshSdfGridValue(uint index) { return meshSdfGrids[index]; }  // for sdf.glsl's mesh colliders
#include "math/quaternion.glsl"
#include "math/sdf.glsl"
#include "particle/collider_stages.glsl"

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    uint candidates = contacts[i].candidates;
    if (candidates == 0u) return;
    vec4 p = predicted[i];
    BodyPush record = bodyPushes[i];
    vec3 origin = vec3(pc.originX, pc.originY, pc.originZ);  // p is relative to it
    ProjectedContact r = projectContacts(p.xyz, candidates, contacts[i].touching, contacts[i].pushedOut, copies[i].x,
                                         pc.stencilStep, origin, positions[i].xyz - origin, pc.dt,
                                         pc.colliderFrictionInSolve, kPushStaticFriction, record);
    predicted[i] = vec4(r.p, p.w);
    contacts[i].touching = r.touching;
    contacts[i].pushedOut = r.pushed;
    bodyPushes[i] = record;
}
