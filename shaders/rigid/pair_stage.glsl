#ifndef VKSIM_PAIR_STAGE_GLSL
#define VKSIM_PAIR_STAGE_GLSL
// docs/physics.md §11: the contacts of two rigid bodies (A, B), A < B, by
// one workgroup. Bodies whose bounding spheres are apart are skipped. Otherwise, as against a collider:
//   - push-out: the depth of the deepest contact point of either body inside
//     the other, beyond the penetration slop, separates the two along the
//     depth-weighted mean normal of all the points inside (step_bodies.comp
//     says why), shared by their inverse masses;
//   - one averaged contact: A's points whose predicted relative position is
//     inside B, and B's points inside A, each moving into the other, averaged
//     (world position and normal, the normal pointing from B to A), each
//     weighted by its predicted depth as against a collider; the
//     impulse +j on A and -j on B, normal and friction (rigid_math.glsl
//     contactImpulse with K = K_A + K_B), bounces their relative normal
//     velocity at the start of the substep.
// Each body's shape is its signed distance (a primitive, or a mesh body's
// grid) at its current pose.
// Needs rigid/rigid_bindings.glsl first.

struct Pose {
    vec3 c;
    vec4 q;
};

// Body `b`'s signed distance at world point x, its shape placed by its pose.
float bodyDistance(uint b, Pose pose, vec3 x) {
    Collider s = shapes[b];
    return sdfWorld(s.type, pose.c + quatRotate(pose.q, s.position.xyz), pose.q, s.size, x);
}
vec3 bodyGradient(uint b, Pose pose, vec3 x) {
    Collider s = shapes[b];
    return sdfGradientTetra(s.type, pose.c + quatRotate(pose.q, s.position.xyz), pose.q, s.size, x, pc.stencilStep);
}

vec3 pointVelocity(BodyVelocity v, Pose pose, vec3 x) { return v.linear + cross(v.angular, x - pose.c); }

// `from`'s points inside `into`: xyz the sum of their depth-weighted
// normals (out of `into`, turned by `sign`), w the largest depth.
vec4 penetrationInside(uint from, Pose fromPose, uint into, Pose intoPose, float sign) {
    vec4 mine = vec4(0.0);
    RigidBody body = bodies[from];
    for (uint i = gl_LocalInvocationID.x; i < body.pointCount; i += kSize) {
        vec3 x = fromPose.c + quatRotate(fromPose.q, points[body.firstPoint + i].xyz);
        float depth = -bodyDistance(into, intoPose, x);
        if (!(depth > 0.0)) continue;
        vec3 grad = bodyGradient(into, intoPose, x);
        if (!(length(grad) > 0.0)) continue;
        mine = vec4(mine.xyz + sign * depth * normalize(grad), max(mine.w, depth));
    }
    return reducePenetration(mine);
}

// `from`'s points moving into `into` at their predicted relative position;
// sums of world positions and of normals, the normals turned by `sign` so
// that they point from B towards A.
ContactSums contactsInside(uint from, Pose fromPose, BodyVelocity fromVel, uint into, Pose intoPose,
                           BodyVelocity intoVel, float sign) {
    ContactSums mine = ContactSums(vec4(0.0), vec3(0.0));
    RigidBody body = bodies[from];
    for (uint i = gl_LocalInvocationID.x; i < body.pointCount; i += kSize) {
        vec3 x = fromPose.c + quatRotate(fromPose.q, points[body.firstPoint + i].xyz);
        vec3 vRelative = pointVelocity(fromVel, fromPose, x) - pointVelocity(intoVel, intoPose, x);
        vec3 predicted = x + pc.dt * vRelative;
        float phi = bodyDistance(into, intoPose, predicted);
        if (!(phi < 0.0)) continue;
        vec3 grad = bodyGradient(into, intoPose, predicted);
        float gradLength = length(grad);
        if (!(gradLength > 0.0)) continue;
        vec3 n = grad / gradLength;
        if (dot(vRelative, n) >= 0.0) continue;
        mine.points += -phi * vec4(x, 1.0);
        mine.normals += -phi * sign * n;
    }
    return reduceContactSums(mine);
}

// Pair `pairIndex` of the pair buffer, by the whole workgroup (uniform
// control flow: every early return is taken by all invocations).
void solvePair(uint pairIndex) {
    uvec2 pair = pairs[pairIndex];
    uint a = pair.x, b = pair.y;
    RigidBody bodyA = bodies[a], bodyB = bodies[b];
    RigidBodyState sA = states[a], sB = states[b];
    workgroupSync();  // everyone has read the states before invocation 0 may write them
    Pose poseA = Pose(sA.position.xyz, sA.rotation), poseB = Pose(sB.position.xyz, sB.rotation);
    BodyVelocity velA = BodyVelocity(sA.linearVelocity.xyz, sA.angularVelocity.xyz);
    BodyVelocity velB = BodyVelocity(sB.linearVelocity.xyz, sB.angularVelocity.xyz);
    BodyVelocity startA = BodyVelocity(sA.startLinearVelocity.xyz, sA.startAngularVelocity.xyz);
    BodyVelocity startB = BodyVelocity(sB.startLinearVelocity.xyz, sB.startAngularVelocity.xyz);
    float reach = bodyA.boundingRadius + bodyB.boundingRadius +
                  pc.dt * (length(velA.linear - velB.linear) + length(velA.angular) * bodyA.boundingRadius +
                           length(velB.angular) * bodyB.boundingRadius);
    if (length(poseA.c - poseB.c) > reach) return;
    float inverseMassSum = bodyA.inverseMass + bodyB.inverseMass;
    if (!(inverseMassSum > 0.0)) return;

    // Push-out (normals from B to A).
    vec4 aInB = penetrationInside(a, poseA, b, poseB, 1.0);
    vec4 bInA = penetrationInside(b, poseB, a, poseA, -1.0);
    vec3 direction = aInB.xyz + bInA.xyz;
    float depth = max(aInB.w, bInA.w);
    if (depth > pc.penetrationSlop && length(direction) > 0.0) {
        vec3 separation = (depth - pc.penetrationSlop) * normalize(direction);
        poseA.c += (bodyA.inverseMass / inverseMassSum) * separation;
        poseB.c -= (bodyB.inverseMass / inverseMassSum) * separation;
    }

    // The averaged contact of both bodies' points.
    ContactSums fromA = contactsInside(a, poseA, velA, b, poseB, velB, 1.0);
    ContactSums fromB = contactsInside(b, poseB, velB, a, poseA, velA, -1.0);
    vec4 pointSum = fromA.points + fromB.points;
    vec3 normalSum = fromA.normals + fromB.normals;
    if (pointSum.w > 0.0 && length(normalSum) > 0.0) {
        vec3 x = pointSum.xyz / pointSum.w;
        vec3 n = normalize(normalSum);
        vec3 vRelative = pointVelocity(velA, poseA, x) - pointVelocity(velB, poseB, x);
        float vN = dot(vRelative, n);
        if (vN < 0.0) {
            float startVN = dot(pointVelocity(startA, poseA, x) - pointVelocity(startB, poseB, x), n);
            mat3 inverseInertiaA = worldInverseInertia(poseA.q, mat3(bodyA.inverseInertia0.xyz,
                                                                     bodyA.inverseInertia1.xyz,
                                                                     bodyA.inverseInertia2.xyz));
            mat3 inverseInertiaB = worldInverseInertia(poseB.q, mat3(bodyB.inverseInertia0.xyz,
                                                                     bodyB.inverseInertia1.xyz,
                                                                     bodyB.inverseInertia2.xyz));
            vec3 rA = x - poseA.c, rB = x - poseB.c;
            mat3 K = contactMatrix(bodyA.inverseMass, inverseInertiaA, rA) +
                     contactMatrix(bodyB.inverseMass, inverseInertiaB, rB);
            vec3 j = contactImpulse(K, vRelative, n, vN, startVN, bodyMaterial(bodyA), bodyMaterial(bodyB),
                                    pc.restingSpeed);
            velA = applyImpulse(velA, bodyA.inverseMass, inverseInertiaA, rA, j);
            velB = applyImpulse(velB, bodyB.inverseMass, inverseInertiaB, rB, -j);
        }
    }

    if (gl_LocalInvocationID.x == 0u) {
        states[a] = RigidBodyState(vec4(poseA.c, 0.0), poseA.q, vec4(velA.linear, 0.0), vec4(velA.angular, 0.0),
                                   sA.startLinearVelocity, sA.startAngularVelocity);
        states[b] = RigidBodyState(vec4(poseB.c, 0.0), poseB.q, vec4(velB.linear, 0.0), vec4(velB.angular, 0.0),
                                   sB.startLinearVelocity, sB.startAngularVelocity);
    }
    workgroupSync();
}

#endif
