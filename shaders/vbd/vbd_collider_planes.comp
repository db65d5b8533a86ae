#version 460
// docs/physics.md §16, "Colliders in the sweeps": per particle of the VBD
// range, the half-space of its nearest candidate collider (collide:
// generate's candidates), linearised at the prediction y
// (vbd/vbd_collider.glsl); zero where it has none. Each sweep's vertex step
// adds its penalty to G, and its friction (docs/physics.md §16, "Friction
// in the sweeps") from the collider's coefficients and the anchor x + h w:
// the substep's start moved with the surface's velocity w at y. A rigid
// body's collider is left to the projection after the solve, as the
// projective-dynamics local step leaves it
// (pd/local_collisions.comp): that projection records what the body gave the
// particles for the two-way coupling.
#include "shared/kernel.glsl"
#include "vbd/vbd_types.h"

layout(push_constant) uniform Push { ParticlePush pc; };
layout(std430, binding = 0) readonly buffer Predicted { vec4 predicted[]; };  // y
layout(binding = 1) uniform usamplerBuffer colliderTexels;  // particle/collider_texels.glsl
#include "particle/collider_texels.glsl"
#include "particle/collider_slots.glsl"
layout(std430, binding = 2) readonly buffer Contacts { ParticleContact contacts[]; };
layout(std430, binding = 3) readonly buffer MeshSdfGrids { float meshSdfGrids[]; };
layout(std430, binding = 4) writeonly buffer Planes { vec4 planes[]; };  // per particle of the range
layout(std430, binding = 5) readonly buffer Positions { vec4 positions[]; };  // x, world: the substep's start
layout(std430, binding = 6) writeonly buffer Frictions { VbdColliderFriction frictions[]; };  // as planes
float meshSdfGridValue(uint index) { return meshSdfGrids[index]; }  // for sdf.glsl's mesh colliders
#include "math/quaternion.glsl"
#include "math/sdf.glsl"
#include "math/coulomb_friction.glsl"  // for contact.glsl
#include "particle/contact.glsl"         // colliderPointVelocity
#include "vbd/vbd_collider.glsl"

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    vec3 origin = vec3(pc.originX, pc.originY, pc.originZ);
    vec3 p = predicted[i].xyz;  // relative to the range's origin
    vec3 start = positions[i].xyz - origin;
    uint candidates = contacts[i].candidates;
    vec4 plane = vec4(0.0);
    VbdColliderFriction friction = VbdColliderFriction(vec4(start, 0.0), 0.0, 0.0, 0u, 0u);
    float nearest = 3.4e38;
    // The scene's colliders, slots [0, kSceneColliders): the bodies' come after.
    for (uint c = 0; c < kSceneColliders; ++c) {
        if ((candidates & (1u << c)) == 0u) continue;
        Collider col = colliderFromOrigin(c, origin);
        float C = sdfWorld(col.type, col.position.xyz, col.rotation, col.size, p) - col.thickness;
        if (C >= nearest) continue;
        nearest = C;
        plane = vbdColliderPlane(p, C, sdfGradientTetra(col.type, col.position.xyz, col.rotation, col.size, p,
                                                        pc.stencilStep));
        vec3 surface = colliderPointVelocity(col.linearVelocity.xyz, col.angularVelocity.xyz, col.position.xyz, p);
        friction = VbdColliderFriction(vec4(start + pc.dt * surface, 0.0), col.size.w, col.friction, 0u, 0u);
    }
    planes[gl_GlobalInvocationID.x] = plane;
    frictions[gl_GlobalInvocationID.x] = friction;
}
