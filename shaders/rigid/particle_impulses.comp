#version 460
// docs/physics.md §11, "Two-way coupling": what the particles gave the
// bodies, given back to them, one workgroup per body. A particle that body
// b's collider pushed by `push` since the last of these passes (BodyPush,
// summed by the particle stages) changed its momentum by m push / h; the
// body takes j_i = -m push / h at the particle's offset r from its centre
// c. The body and the particles that touched it then share j = sum j_i and
// its moment about c as one rigid aggregate (rigid_math.glsl,
// aggregateVelocityChange): the body takes the aggregate's change here,
// the particles the same rigid change at their point
// (particle/follow_bodies.comp), so that the momentum the particles lost is
// what body and particles gain, linear and angular, however light the body.
//   kCouplingPositions, after each PBD iteration's projections: the
//   change is a displacement (j h: the pushes themselves), which moves the
//   body's pose and changes its velocities by it over h, as PBD moves a
//   particle; the body's collider entry is written again
//   (rigid/body_collider.glsl), so the next iteration meets it where it went.
//   kCouplingVelocities, at the end of the substep: what the velocity
//   passes (friction, restitution) and the solvers without iterations of
//   projections left; the velocities alone change.
// Invocation t sums, in index order, the particles of the range whose index
// in the body's batch copy (ParticleStore::copies) less firstParticle is
// t + 64 k, walking only its copy's particles (BodyCoupling's copy runs),
// and the workgroup reduces over a fixed tree: the same sums on every run,
// no float atomics, and in a batch the sums of the copy's World at the cost
// of the copy's particles (in a scene's world a particle's index in its
// copy is its index, and one run holds them all).
#extension GL_GOOGLE_include_directive : require
#include "shared/kernel.glsl"
#include "rigid/rigid_types.h"
#include "math/quaternion.glsl"
#include "math/coulomb_friction.glsl"
#include "rigid/rigid_math.glsl"
#include "rigid/body_collider.glsl"

layout(push_constant) uniform Push { CouplingPush pc; };
layout(std430, binding = 0) readonly buffer Bodies { RigidBody bodies[]; };
layout(std430, binding = 1) buffer States { RigidBodyState states[]; };
layout(std430, binding = 2) readonly buffer Positions { vec4 positions[]; };  // x (world); w: 1/m
layout(std430, binding = 3) readonly buffer Predicted { vec4 predicted[]; };  // p, relative to the origin
layout(std430, binding = 4) readonly buffer BodyPushes { BodyPush bodyPushes[]; };
layout(std430, binding = 5) writeonly buffer Changes { BodyChange changes[]; };
layout(std430, binding = 6) readonly buffer Shapes { Collider shapes[]; };  // per body, in its body frame
layout(std430, binding = 7) writeonly buffer Colliders { Collider colliders[]; };
// Per copy, its first run; per run: first particle, its index in the copy, count.
layout(std430, binding = 8) readonly buffer CopyRunStarts { uint copyRunStarts[]; };
layout(std430, binding = 9) readonly buffer CopyRuns { uvec4 copyRuns[]; };

const uint kSums = 5;  // j and the mass, torque, moment, spread's diagonal, its off-diagonal (xy, xz, yz)
shared vec4 sums[kSums][gl_WorkGroupSize.x];

void main() {
    uint b = gl_WorkGroupID.x;
    uint t = gl_LocalInvocationID.x;
    bool positionsMode = pc.mode == kCouplingPositions;
    vec3 c = states[b].position.xyz;
    vec3 origin = vec3(pc.originX, pc.originY, pc.originZ);
    // Positions: the pushes are the displacements (j h).
    float scale = positionsMode ? 1.0 : 1.0 / pc.dt;
    vec4 mine[kSums] = vec4[kSums](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));
    // Only the particles of the body's copy push it (generateContact).
    uint copy = uint(shapes[b].angularVelocity.w);
    uint rangeEnd = pc.firstParticle + pc.particleCount;
    for (uint n = copyRunStarts[copy]; n < copyRunStarts[copy + 1u]; ++n) {
        uvec4 run = copyRuns[n];
        uint first = max(run.x, pc.firstParticle), end = min(run.x + run.z, rangeEnd);
        // The run's first particle of invocation t: its index in the copy
        // less firstParticle is t modulo 64, as in the World of the copy alone.
        uint y = run.y + (first - run.x);
        for (uint i = first + (t - (y - pc.firstParticle)) % gl_WorkGroupSize.x; i < end; i += gl_WorkGroupSize.x) {
            BodyPush record = bodyPushes[i];
            if (record.collider != pc.firstBodyCollider + b) continue;
            vec4 x = positions[i];
            float m = 1.0 / x.w;  // pushed particles move: w > 0 (generateContact)
            vec3 r = (positionsMode ? origin + predicted[i].xyz : x.xyz) - c;
            vec3 j = (-m * scale) * vec3(record.pushX, record.pushY, record.pushZ);
            mine[0] += vec4(j, m);
            mine[1].xyz += cross(r, j);
            mine[2].xyz += m * r;
            mine[3].xyz += m * (vec3(dot(r, r)) - r * r);
            mine[4].xyz -= m * vec3(r.x * r.y, r.x * r.z, r.y * r.z);
        }
    }
    for (uint k = 0; k < kSums; ++k) sums[k][t] = mine[k];
    for (uint stride = gl_WorkGroupSize.x / 2u; stride > 0u; stride /= 2u) {
        barrier();
        if (t < stride)
            for (uint k = 0; k < kSums; ++k) sums[k][t] += sums[k][t + stride];
    }
    barrier();
    if (t != 0u) return;
    BodyChange change = BodyChange(vec4(0.0), vec4(0.0), vec4(c, 0.0));
    RigidBody body = bodies[b];
    if (sums[0][0].w > 0.0 && body.inverseMass > 0.0) {
        RigidBodyState s = states[b];
        mat3 inertia = worldTensor(s.rotation, mat3(body.inertia0.xyz, body.inertia1.xyz, body.inertia2.xyz));
        vec3 d = sums[3][0].xyz, o = sums[4][0].xyz;
        mat3 spread = mat3(d.x, o.x, o.y, o.x, d.y, o.z, o.y, o.z, d.z);
        BodyVelocity dv = aggregateVelocityChange(body.inverseMass, inertia, sums[0][0].xyz, sums[1][0].xyz,
                                                  sums[0][0].w, sums[2][0].xyz, spread);
        if (positionsMode) {
            s.position.xyz += dv.linear;
            s.rotation = integrateRotation(s.rotation, dv.angular, 1.0);
            s.linearVelocity.xyz += dv.linear / pc.dt;
            s.angularVelocity.xyz += dv.angular / pc.dt;
        } else {
            s.linearVelocity.xyz += dv.linear;
            s.angularVelocity.xyz += dv.angular;
        }
        states[b] = s;
        if (positionsMode) colliders[pc.firstBodyCollider + b] = bodyCollider(s, shapes[b]);
        change = BodyChange(vec4(dv.linear, 0.0), vec4(dv.angular, 0.0), vec4(c, 0.0));
    }
    changes[b] = change;
}
