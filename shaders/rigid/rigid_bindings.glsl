// What the rigid-body kernels bind (rigid/step_bodies.comp all of it,
// rigid/body_pairs.comp all but the colliders, which come last so that its
// bindings stay 0..n-1), and the math they share.
#ifndef VKSIM_RIGID_BINDINGS_GLSL
#define VKSIM_RIGID_BINDINGS_GLSL
#extension GL_GOOGLE_include_directive : require
#include "rigid/rigid_types.h"
#include "shared/sim_types.h"
#include "math/real_glsl.h"

layout(push_constant) uniform Push { RigidPush pc; };
layout(std430, binding = 0) readonly buffer Bodies { RigidBody bodies[]; };
// Coherent: the one-workgroup path writes a body's state and reads it back
// in the same dispatch, after a barrier.
layout(std430, binding = 1) coherent buffer States { RigidBodyState states[]; };
layout(std430, binding = 2) readonly buffer Points { vec4 points[]; };  // body-frame offsets r_i (xyz)
layout(std430, binding = 3) readonly buffer MeshSdfGrids { float meshSdfGrids[]; };
layout(std430, binding = 4) readonly buffer Shapes { Collider shapes[]; };  // per body, in its body frame
layout(std430, binding = 5) readonly buffer Pairs { uvec2 pairs[]; };
layout(binding = 6) uniform usamplerBuffer colliderTexels;  // particle/collider_texels.glsl
#include "particle/collider_texels.glsl"

float meshSdfGridValue(uint index) { return meshSdfGrids[index]; }  // for sdf.glsl's mesh grids
#include "math/quaternion.glsl"
#include "math/sdf.glsl"
#include "math/coulomb_friction.glsl"
#include "rigid/rigid_math.glsl"
#include "rigid/rigid_reduce.glsl"

// The materials a contact impulse combines (rigid_math.glsl's contactImpulse):
// a body's, and a collider's, whose static coefficient is Collider::size.w.
ContactMaterial bodyMaterial(RigidBody body) {
    return ContactMaterial(body.friction, body.staticFriction, body.restitution);
}
ContactMaterial colliderMaterial(Collider col) { return ContactMaterial(col.friction, col.size.w, col.restitution); }

// A state written by invocation 0 made visible to the whole workgroup, and
// everyone waits (and has read what it needed before it is overwritten).
void workgroupSync() {
    memoryBarrierBuffer();
    barrier();
}

#endif
