#version 460
// docs/physics.md §11: one frame of every rigid body, every substep, one
// workgroup per body. Each substep:
//   1-2. v += h g, omega += h I^-1 (-omega x I omega), damping;
//   contacts by impulses, collider by collider in scene order: the body's
//        contact points whose predicted position x_i + h v_i is inside the
//        collider and whose velocity points into it are averaged into one
//        contact (the seed's choice: one impulse per body and collider),
//        which gets the impulse that gives it the wanted velocity;
//   3.   c += h v, q += [0, h omega / 2] q, normalised;
//   then the body is moved out of each collider by the deepest point's depth
//   beyond the penetration slop (moving it lifts it without a velocity, which
//   adds energy: the slop keeps resting and rocking bodies from being pumped).
// The invocations share the contact points (point k to invocation k % 64)
// and reduce their sums over a fixed tree, so the result does not depend on
// scheduling; every invocation then computes the same impulse from the same
// sums, so the body's state needs no broadcast.
#extension GL_GOOGLE_include_directive : require
#include "shared/rigid_types.h"
#include "shared/sim_types.h"
#include "math/real_glsl.h"
layout(local_size_x = 64) in;
const uint kSize = 64;

layout(push_constant) uniform Push { RigidPush pc; };
layout(std430, binding = 0) readonly buffer Bodies { RigidBody bodies[]; };
layout(std430, binding = 1) buffer States { RigidBodyState states[]; };
layout(std430, binding = 2) readonly buffer Points { vec4 points[]; };  // body-frame offsets r_i (xyz)
layout(std430, binding = 3) readonly buffer Colliders { Collider colliders[]; };
layout(std430, binding = 4) readonly buffer MeshSdfGrids { float meshSdfGrids[]; };

float meshSdfGridValue(uint index) { return meshSdfGrids[index]; }  // for sdf.glsl's mesh colliders
#include "math/sdf.glsl"
#include "rigid/rigid_math.glsl"

// Per invocation: what its points contribute, reduced over the workgroup.
shared vec4 sharedOffset[kSize];  // xyz: sum of world offsets R r_i; w: how many points
shared vec4 sharedNormal[kSize];  // xyz: sum of unit normals
shared vec4 sharedDeepest[kSize];  // xyz: normal of the deepest point; w: its depth (>0 inside)

// Sums sharedOffset and sharedNormal into element 0 over a fixed tree.
void reduceSums(uint t) {
    for (uint stride = kSize / 2u; stride > 0u; stride /= 2u) {
        barrier();
        if (t < stride) {
            sharedOffset[t] += sharedOffset[t + stride];
            sharedNormal[t] += sharedNormal[t + stride];
        }
    }
    barrier();
}

// The deepest point into element 0; on equal depths the lower invocation wins.
void reduceDeepest(uint t) {
    for (uint stride = kSize / 2u; stride > 0u; stride /= 2u) {
        barrier();
        if (t < stride && sharedDeepest[t + stride].w > sharedDeepest[t].w) sharedDeepest[t] = sharedDeepest[t + stride];
    }
    barrier();
}

vec3 colliderVelocityAt(Collider c, vec3 x) {
    return c.linearVelocity.xyz + cross(c.angularVelocity.xyz, x - c.position.xyz);
}

void main() {
    uint b = gl_WorkGroupID.x;
    uint t = gl_LocalInvocationID.x;
    if (b >= pc.bodyCount) return;  // whole workgroups only: barriers stay uniform
    RigidBody body = bodies[b];
    RigidBodyState s = states[b];
    mat3 inertiaRef = mat3(body.inertia0.xyz, body.inertia1.xyz, body.inertia2.xyz);
    mat3 inverseInertiaRef = mat3(body.inverseInertia0.xyz, body.inverseInertia1.xyz, body.inverseInertia2.xyz);
    vec3 c = s.position.xyz;
    vec4 q = s.rotation;
    BodyVelocity vel = BodyVelocity(s.linearVelocity.xyz, s.angularVelocity.xyz);
    float h = pc.dt;

    for (uint substep = 0u; substep < pc.substeps; ++substep) {
        vel = integrateBodyVelocity(vel.linear, vel.angular, q, inertiaRef, inverseInertiaRef, body.inverseMass,
                                    pc.gravity.xyz, h, pc.linearDamping, pc.angularDamping, pc.gyroscopic != 0u);

        // Contacts by impulses, one collider after another.
        for (uint k = 0u; k < pc.colliderCount; ++k) {
            Collider col = colliders[k];
            vec4 offsetSum = vec4(0.0);
            vec3 normalSum = vec3(0.0);
            for (uint i = t; i < body.pointCount; i += kSize) {
                vec3 r = quatRotate(q, points[body.firstPoint + i].xyz);
                vec3 vPoint = vel.linear + cross(vel.angular, r);
                vec3 predicted = c + r + h * vPoint;
                float phi = sdfWorld(col.type, col.position.xyz, col.rotation, col.size, predicted) - col.thickness;
                if (!(phi < 0.0)) continue;
                vec3 grad = sdfGradientTetra(col.type, col.position.xyz, col.rotation, col.size, predicted,
                                             pc.stencilStep);
                float gradLength = length(grad);
                if (!(gradLength > 0.0)) continue;
                vec3 n = grad / gradLength;
                if (dot(vPoint - colliderVelocityAt(col, predicted), n) >= 0.0) continue;
                offsetSum += vec4(r, 1.0);
                normalSum += n;
            }
            sharedOffset[t] = offsetSum;
            sharedNormal[t] = vec4(normalSum, 0.0);
            reduceSums(t);
            vec4 total = sharedOffset[0];
            vec3 totalNormal = sharedNormal[0].xyz;
            barrier();  // element 0 is rewritten by the next collider
            if (total.w == 0.0 || !(length(totalNormal) > 0.0)) continue;
            vec3 r = total.xyz / total.w;
            vec3 n = normalize(totalNormal);
            vec3 contact = c + r;
            vec3 vRelative = vel.linear + cross(vel.angular, r) - colliderVelocityAt(col, contact);
            float vN = dot(vRelative, n);
            if (vN >= 0.0) continue;
            float restitution = fadedRestitution(max(body.restitution, col.restitution), -vN, pc.restingSpeed);
            float friction = sqrt(body.friction * col.friction);
            vec3 wanted = wantedContactVelocity(vRelative, n, restitution, friction);
            mat3 inverseInertia = worldInverseInertia(q, inverseInertiaRef);
            vec3 j = contactImpulse(body.inverseMass, inverseInertia, r, wanted - vRelative);
            vel = applyImpulse(vel, body.inverseMass, inverseInertia, r, j);
        }

        c += h * vel.linear;
        q = integrateRotation(q, vel.angular, h);

        // Out of each collider's penetration by the deepest point's depth
        // beyond the slop, along that point's normal.
        for (uint k = 0u; k < pc.colliderCount; ++k) {
            Collider col = colliders[k];
            vec4 deepest = vec4(0.0);
            for (uint i = t; i < body.pointCount; i += kSize) {
                vec3 x = c + quatRotate(q, points[body.firstPoint + i].xyz);
                float depth = col.thickness - sdfWorld(col.type, col.position.xyz, col.rotation, col.size, x);
                if (!(depth > deepest.w)) continue;
                vec3 grad = sdfGradientTetra(col.type, col.position.xyz, col.rotation, col.size, x, pc.stencilStep);
                if (!(length(grad) > 0.0)) continue;
                deepest = vec4(normalize(grad), depth);
            }
            sharedDeepest[t] = deepest;
            reduceDeepest(t);
            deepest = sharedDeepest[0];
            barrier();
            if (deepest.w > pc.penetrationSlop && body.inverseMass > 0.0)
                c += (deepest.w - pc.penetrationSlop) * deepest.xyz;
        }
    }

    if (t == 0u) states[b] = RigidBodyState(vec4(c, 0.0), q, vec4(vel.linear, 0.0), vec4(vel.angular, 0.0));
}
