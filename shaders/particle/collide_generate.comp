#version 460
// docs/physics.md §1, step 3: collision constraints for the predicted
// positions, one thread per particle (particle/collider_stages.glsl).
#include "shared/kernel.glsl"

layout(push_constant) uniform Push { ParticlePush pc; };
layout(std430, binding = 0) readonly buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 1) readonly buffer Velocities { vec4 velocities[]; };
layout(binding = 2) uniform usamplerBuffer colliderTexels;  // particle/collider_texels.glsl
#include "particle/collider_texels.glsl"
layout(std430, binding = 3) writeonly buffer Contacts { ParticleContact contacts[]; };
layout(std430, binding = 4) readonly buffer MeshSdfGrids { float meshSdfGrids[]; };
layout(std430, binding = 5) writeonly buffer BodyPushes { BodyPush bodyPushes[]; };  // reset for the substep
layout(std430, binding = 6) readonly buffer Copies { uvec2 copies[]; };  // each particle's batch copy, its index in it
float meshSdfGridValue(uint index) { return meshSdfGrids[index]; }  // for sdf.glsl's mesh colliders
#include "math/quaternion.glsl"
#include "math/sdf.glsl"
#include "particle/collider_stages.glsl"

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    vec4 p = predicted[i];  // relative to the range's origin
    contacts[i] = generateContact(p.xyz, p.w, velocities[i].xyz, copies[i].x, pc.collisionMargin, pc.stencilStep,
                                  vec3(pc.originX, pc.originY, pc.originZ));
    bodyPushes[i] = BodyPush(0.0, 0.0, 0.0, kNoBodyPush);
}
