#version 460
// docs/physics.md §11: the rigid bodies against the colliders, one workgroup
// per body. A substep is:
//   0.   the velocities kept as the substep's start velocities;
//   1-2. v += h g, omega by the implicit gyroscopic step, damping;
//   contacts by impulses, `iterations` times, and between them the body
//        pairs (body_pairs.comp): collider by collider in scene order, the
//        body's contact points whose predicted position x_i + h v_i is
//        inside the collider and whose velocity points into it are averaged
//        into one contact (the seed's choice: one impulse per body and
//        collider), which gets the impulse that gives it the wanted velocity
//        (its bounce from the start velocities);
//   3.   c += h v, q += [0, h omega / 2] q, normalised, omega turned with
//        the body (v, omega: the end velocities, or with the mid-point rule
//        the mean of the start and end ones);
//   then the body is moved out of each collider by the deepest point's depth
//   beyond the penetration slop (moving it lifts it without a velocity, which
//   adds energy: the slop keeps resting and rocking bodies from being pumped),
//   along the depth-weighted mean normal of the points inside (one point's
//   normal is ambiguous on an edge: a corner of a box resting on an equal box
//   sits on its edge, where the nearest face may be a side).
// pc.phase says which part this dispatch runs: a run of items of the
// frame's sequence in one workgroup (few bodies, or one: rigid_frame_items.h;
// bodies one after another and pairs in their rounds' order, each by all 64
// invocations, so the same sums in the same order as the per-substep path),
// or one substep's contacts or positions, one workgroup per body (many
// bodies: the rounds of pairs, body_pairs.comp, run in between).
// The invocations share the contact points (point k to invocation k % 64)
// and reduce their sums over a fixed tree (rigid_reduce.glsl); every
// invocation then computes the same impulse from the same sums, so the
// body's state needs no broadcast.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 64) in;
#include "rigid/rigid_bindings.glsl"
#include "rigid/pair_stage.glsl"

RigidBody body;
uint bodyIndex;
mat3 inertiaRef, inverseInertiaRef;
vec3 c;
vec4 q;
BodyVelocity vel;
BodyVelocity start;  // the velocities at the start of the substep

vec3 colliderVelocityAt(Collider col, vec3 x) {
    return col.linearVelocity.xyz + cross(col.angularVelocity.xyz, x - col.position.xyz);
}

// Steps 1-2, then the mouse's impulse on a dragged body (BodyDrag): its
// grabbed point gets the velocity that closes on the target.
void integrateVelocity() {
    start = vel;
    vel = integrateBodyVelocity(vel.linear, vel.angular, q, inertiaRef, body.inverseMass, pc.gravity.xyz, pc.dt,
                                pc.linearDamping, pc.angularDamping, (pc.integration & kRigidGyroscopic) != 0u);
    if (pc.dragTarget.w >= 0.0 && uint(pc.dragTarget.w) == bodyIndex && body.inverseMass > 0.0) {
        vec3 r = quatRotate(q, pc.dragPoint.xyz);
        vec3 dv = dragVelocityChange(c + r, vel.linear + cross(vel.angular, r), pc.dragTarget.xyz, pc.dragPoint.w);
        mat3 inverseInertia = worldInverseInertia(q, inverseInertiaRef);
        vel = applyImpulse(vel, body.inverseMass, inverseInertia, r,
                           velocityChangeImpulse(body.inverseMass, inverseInertia, r, dv));
    }
}

// Penalty contacts (docs/physics.md §11, "Penalty contacts"): every contact
// point inside a collider's buffer zone pushes with the penalty force;
// their sum and torque about the centre act for the substep, once. No
// friction, and no push-out: the force alone keeps the body out.
void penaltyContacts() {
    uint t = gl_LocalInvocationID.x;
    for (uint k = 0u; k < pc.colliderCount; ++k) {
        Collider col = colliderAt(k);
        ContactSums mine = ContactSums(vec4(0.0), vec3(0.0));  // points.xyz: force; normals: torque
        for (uint i = t; i < body.pointCount; i += kSize) {
            vec3 r = quatRotate(q, points[body.firstPoint + i].xyz);
            vec3 x = c + r;
            float phi = sdfWorld(col.type, col.position.xyz, col.rotation, col.size, x) - col.thickness;
            float magnitude = penaltyMagnitude(pc.contactModel, phi, pc.penaltyBuffer, pc.penaltyStiffness,
                                               pc.barrierStrength);
            if (!(magnitude > 0.0)) continue;
            vec3 grad = sdfGradientTetra(col.type, col.position.xyz, col.rotation, col.size, x, pc.stencilStep);
            if (!(length(grad) > 0.0)) continue;
            vec3 f = magnitude * normalize(grad);
            mine.points += vec4(f, 0.0);
            mine.normals += cross(r, f);
        }
        ContactSums total = reduceContactSums(mine);
        vel.linear += pc.dt * body.inverseMass * total.points.xyz;
        vel.angular += pc.dt * worldTensorTimes(q, inverseInertiaRef, total.normals);
    }
}

// One pass of contacts by impulses over the colliders, in scene order.
void colliderContacts() {
    uint t = gl_LocalInvocationID.x;
    for (uint k = 0u; k < pc.colliderCount; ++k) {
        Collider col = colliderAt(k);
        ContactSums mine = ContactSums(vec4(0.0), vec3(0.0));
        for (uint i = t; i < body.pointCount; i += kSize) {
            vec3 r = quatRotate(q, points[body.firstPoint + i].xyz);
            vec3 vPoint = vel.linear + cross(vel.angular, r);
            vec3 predicted = c + r + pc.dt * vPoint;
            float phi = sdfWorld(col.type, col.position.xyz, col.rotation, col.size, predicted) - col.thickness;
            if (!(phi < 0.0)) continue;
            vec3 grad = sdfGradientTetra(col.type, col.position.xyz, col.rotation, col.size, predicted, pc.stencilStep);
            float gradLength = length(grad);
            if (!(gradLength > 0.0)) continue;
            vec3 n = grad / gradLength;
            if (dot(vPoint - colliderVelocityAt(col, predicted), n) >= 0.0) continue;
            mine.points += -phi * vec4(r, 1.0);
            mine.normals += -phi * n;
        }
        ContactSums total = reduceContactSums(mine);
        if (total.points.w == 0.0 || !(length(total.normals) > 0.0)) continue;
        vec3 r = total.points.xyz / total.points.w;
        vec3 n = normalize(total.normals);
        vec3 colliderVelocity = colliderVelocityAt(col, c + r);
        vec3 vRelative = vel.linear + cross(vel.angular, r) - colliderVelocity;
        float vN = dot(vRelative, n);
        if (vN >= 0.0) continue;
        float startVN = dot(start.linear + cross(start.angular, r) - colliderVelocity, n);
        mat3 inverseInertia = worldInverseInertia(q, inverseInertiaRef);
        vec3 j = contactImpulse(contactMatrix(body.inverseMass, inverseInertia, r), vRelative, n, vN, startVN,
                                bodyMaterial(body), colliderMaterial(col), pc.restingSpeed);
        vel = applyImpulse(vel, body.inverseMass, inverseInertia, r, j);
    }
}

// Step 3 and, with impulses, the push-out of each collider's penetration
// beyond the slop.
void integratePositions() {
    uint t = gl_LocalInvocationID.x;
    BodyVelocity moving = movingVelocity(start, vel, (pc.integration & kRigidMidpoint) != 0u);
    c += pc.dt * moving.linear;
    q = integrateRotation(q, moving.angular, pc.dt);
    vel.angular = carriedAngularVelocity(vel.angular, moving.angular, pc.dt);
    if (pc.contactModel != kRigidContactImpulse) return;
    for (uint k = 0u; k < pc.colliderCount; ++k) {
        Collider col = colliderAt(k);
        vec4 mine = vec4(0.0);
        for (uint i = t; i < body.pointCount; i += kSize) {
            vec3 x = c + quatRotate(q, points[body.firstPoint + i].xyz);
            float depth = col.thickness - sdfWorld(col.type, col.position.xyz, col.rotation, col.size, x);
            if (!(depth > 0.0)) continue;
            vec3 grad = sdfGradientTetra(col.type, col.position.xyz, col.rotation, col.size, x, pc.stencilStep);
            if (!(length(grad) > 0.0)) continue;
            mine = vec4(mine.xyz + depth * normalize(grad), max(mine.w, depth));
        }
        vec4 penetration = reducePenetration(mine);
        if (penetration.w > pc.penetrationSlop && length(penetration.xyz) > 0.0 && body.inverseMass > 0.0)
            c += (penetration.w - pc.penetrationSlop) * normalize(penetration.xyz);
    }
}

// One contact pass against the colliders: impulses every iteration, a
// penalty force once a substep (on its first iteration).
void contacts(bool firstIteration) {
    if (pc.contactModel == kRigidContactImpulse) colliderContacts();
    else if (firstIteration) penaltyContacts();
}

// Body b's constants and state into the globals above; everyone has read
// them before anyone may write them again.
void loadBody(uint b) {
    bodyIndex = b;
    body = bodies[b];
    RigidBodyState s = states[b];
    inertiaRef = mat3(body.inertia0.xyz, body.inertia1.xyz, body.inertia2.xyz);
    inverseInertiaRef = mat3(body.inverseInertia0.xyz, body.inverseInertia1.xyz, body.inverseInertia2.xyz);
    c = s.position.xyz;
    q = s.rotation;
    vel = BodyVelocity(s.linearVelocity.xyz, s.angularVelocity.xyz);
    start = BodyVelocity(s.startLinearVelocity.xyz, s.startAngularVelocity.xyz);
    workgroupSync();
}

void storeBody(uint b) {
    if (gl_LocalInvocationID.x == 0u)
        states[b] = RigidBodyState(vec4(c, 0.0), q, vec4(vel.linear, 0.0), vec4(vel.angular, 0.0),
                                   vec4(start.linear, 0.0), vec4(start.angular, 0.0));
    workgroupSync();
}

// Item `item` of the frame's sequence (rigid_frame_items.h): per substep,
// `iterations` times every body's contacts (the first time after its
// velocity update) then every pair, then every body's positions. Every item
// loads and stores its bodies' states, so a dispatch may end after any item.
void frameItem(uint item) {
    uint perIteration = pc.bodyCount + pc.pairCount;
    uint contactItems = pc.iterations * perIteration;
    uint k = item % (contactItems + pc.bodyCount);
    if (k < contactItems) {
        bool firstIteration = k < perIteration;
        k %= perIteration;
        if (k >= pc.bodyCount) {
            solvePair(k - pc.bodyCount);
            return;
        }
        loadBody(k);
        if (firstIteration) integrateVelocity();
        contacts(firstIteration);
        storeBody(k);
    } else {
        loadBody(k - contactItems);
        integratePositions();
        storeBody(k - contactItems);
    }
}

void main() {
    if (pc.phase == kRigidPhaseItems) {
        for (uint item = pc.first; item < pc.first + pc.itemCount; ++item) frameItem(item);
        return;
    }
    uint b = gl_WorkGroupID.x;
    if (b >= pc.bodyCount) return;  // whole workgroups only: barriers stay uniform
    loadBody(b);
    if (pc.phase == kRigidPhaseContacts) {
        if (pc.integrate != 0u) integrateVelocity();
        contacts(pc.integrate != 0u);
    } else {
        integratePositions();
    }
    storeBody(b);
}
