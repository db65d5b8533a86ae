#version 460
// docs/physics.md §11, "Two-way coupling": each particle a body pushed
// takes the change the body and its touching particles share
// (rigid/particle_impulses.comp), the rigid change dX + theta x r
// (kCouplingPositions: to p) or dV + dw x r (kCouplingVelocities: to v)
// at its offset r from the body's centre, and its push is spent: the next
// gather sums what comes after. One thread per particle of the range.
#extension GL_GOOGLE_include_directive : require
#include "shared/kernel.glsl"
#include "rigid/rigid_types.h"

layout(push_constant) uniform Push { CouplingPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };  // x (world)
layout(std430, binding = 1) buffer Predicted { vec4 predicted[]; };           // p, relative to the origin
layout(std430, binding = 2) buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 3) buffer BodyPushes { BodyPush bodyPushes[]; };
layout(std430, binding = 4) readonly buffer Changes { BodyChange changes[]; };

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    uint collider = bodyPushes[i].collider;
    if (collider == kNoBodyPush) return;
    BodyChange change = changes[collider - pc.firstBodyCollider];
    if (pc.mode == kCouplingPositions) {
        vec3 p = predicted[i].xyz;
        vec3 r = vec3(pc.originX, pc.originY, pc.originZ) + p - change.centre.xyz;
        predicted[i].xyz = p + change.linear.xyz + cross(change.angular.xyz, r);
    } else {
        vec3 r = positions[i].xyz - change.centre.xyz;
        velocities[i].xyz += change.linear.xyz + cross(change.angular.xyz, r);
    }
    bodyPushes[i] = BodyPush(0.0, 0.0, 0.0, collider);
}
