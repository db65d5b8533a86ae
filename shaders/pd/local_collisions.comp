#version 460
// docs/physics.md §5 with docs/physics.md §1's colliders: the projection of q onto the outside
// of each candidate collider (C = f(q) - thickness >= 0, gradient by the
// tetrahedral stencil, candidates in collider order as in the PBD pass).
// Where one was violated the particle gets a closeness constraint to the
// projected point (xyz, w = 1) for this local/global iteration, with weight
// collisionWeight * m / h^2 (added by the gather pass); w = 0 otherwise.
// The target holds the collider's Coulomb friction (projectContacts of
// particle/collider_stages.glsl with coulombCorrection, particle/contact.glsl;
// docs/physics.md §5, "Local step"):
// the particle's slip since the substep's start x is undone inside the
// static cone of the depth it is pushed, cut by mu_k times it outside, so
// the constraint pulls tangentially at most mu times its normal pull, as
// the ground's force on a solid's bottom vertex carrying the weight above
// it. The shared stages after the solve then leave the scene colliders'
// friction out (PdSolver::holdsColliderFriction).
// Touching colliders are recorded for the friction pass. A rigid body's
// collider is not one of these constraints: the projection after the solve
// (particle/project_collision.comp) pushes the particles out of it, which
// records exactly what the body gave them for the two-way coupling
// (docs/physics.md §11); a constraint inside the solve spreads its push
// through the global step, where no particle's share of it is known.
#include "shared/kernel.glsl"
#include "pd/pd_types.h"

layout(push_constant) uniform Push { PdParticlePush pc; };
layout(std430, binding = 0) readonly buffer Q { vec4 q[]; };
layout(binding = 1) uniform usamplerBuffer colliderTexels;  // particle/collider_texels.glsl
#include "particle/collider_texels.glsl"
layout(std430, binding = 2) buffer Contacts { ParticleContact contacts[]; };
layout(std430, binding = 3) writeonly buffer CollisionTargets { vec4 collisionTargets[]; };
layout(std430, binding = 4) readonly buffer MeshSdfGrids { float meshSdfGrids[]; };
layout(std430, binding = 5) readonly buffer Positions { vec4 positions[]; };  // x, world: the substep's start
float meshSdfGridValue(uint index) { return meshSdfGrids[index]; }  // for sdf.glsl's mesh colliders
#include "math/quaternion.glsl"
#include "math/sdf.glsl"
#include "particle/collider_stages.glsl"

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    vec3 p = q[i].xyz;
    vec3 origin = vec3(pc.originX, pc.originY, pc.originZ);  // q is relative to it
    // The scene's colliders' slots (the bodies' come after), each with its
    // friction (no colliderFrictionInSolve here: this is that solve), and
    // no body's push to record.
    uint candidates = contacts[i].candidates & sceneSlotBits();
    float hit = 0.0;
    if (candidates != 0u) {
        BodyPush none = BodyPush(0.0, 0.0, 0.0, kNoBodyPush);
        ProjectedContact r = projectContacts(p, candidates, 0u, 0.0, 0u, pc.stencilStep, origin,
                                             positions[i].xyz - origin, pc.dt, 0u, kPushCoulombFriction, none);
        p = r.p;
        contacts[i].touching |= r.touching;
        hit = r.touching != 0u ? 1.0 : 0.0;
    }
    collisionTargets[i] = vec4(p, hit);
}
