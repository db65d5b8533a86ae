// The per-particle collider stages (docs/physics.md §1 steps 3 and 6, §3),
// one particle at a time: contact generation, the projection of the
// collision constraints and the contact velocity. Written once, called by the
// stand-alone stage kernels (collide_generate.comp, project_collision.comp,
// contact_velocity.comp) and by the PBD workgroup solve
// (pbd/solve_in_workgroup.glsl). GLSL only (it reads the collider buffer):
// the includer includes particle/collider_texels.glsl and math/sdf.glsl
// first.
#ifndef VKSIM_COLLIDER_STAGES_GLSL
#define VKSIM_COLLIDER_STAGES_GLSL

#include "math/coulomb_friction.glsl"
#include "particle/collider_slots.glsl"
#include "particle/contact.glsl"
#include "particle/particle_math.glsl"

// Every stage takes the origin its positions are relative to: the range's
// origin for predicted positions, zero for the store's positions x
// (colliderFromOrigin, particle/collider_texels.glsl). A particle's
// candidate and touching bits are its slots (particle/collider_slots.glsl):
// the scene's colliders, then its batch copy's (`copy`) rigid bodies.

// Collision constraints for predicted position p (inverse mass w, velocity v):
// a collider becomes a candidate when p is within collisionMargin of its
// surface (plus thickness); the projection then enforces f(p) - thickness >= 0
// for the candidates only. The approach speed v.N towards the nearest
// candidate is kept for restitution and friction. The copies of a batch
// share the space and the scene's colliders, not their bodies.
ParticleContact generateContact(vec3 p, float w, vec3 v, uint copy, float collisionMargin, float stencilStep,
                                vec3 origin) {
    ParticleContact contact = ParticleContact(0u, 0u, 0.0, 0.0);
    float nearest = 3.4e38;
    if (w > 0.0) {
        for (uint slot = 0; slot < colliderSlots(); ++slot) {
            Collider col = colliderFromOrigin(colliderOfSlot(slot, copy), origin);
            // Culled by the bound (sim/collider_bounds.h) where the SDF
            // would be beyond the margin, with room for rounding (a relative
            // 1e-4 of the distances), so no decision changes.
            float bound = col.position.w;
            if (bound >= 0.0) {
                float d = length(p - col.position.xyz);
                if (d - bound - col.thickness >= collisionMargin + 1e-4 * (d + bound)) continue;
            }
            float C = sdfWorld(col.type, col.position.xyz, col.rotation, col.size, p) - col.thickness;
            if (C >= collisionMargin) continue;
            contact.candidates |= 1u << slot;
            if (C < nearest) {
                nearest = C;
                vec3 g = sdfGradientTetra(col.type, col.position.xyz, col.rotation, col.size, p, stencilStep);
                float gl = length(g);
                // Relative to the surface (v - 0 is v, bit for bit, at rest).
                vec3 vc = colliderPointVelocity(col.linearVelocity.xyz, col.angularVelocity.xyz,
                                                col.position.xyz, p);
                contact.approachSpeed = gl > 0.0 ? dot(v - vc, g / gl) : 0.0;
            }
        }
    }
    return contact;
}

// p projected out of every candidate collider it is inside; `touching` gains
// the bit of each collider that pushed it, `pushed` the normal distance
// (ParticleContact::pushedOut).
struct ProjectedContact {
    vec3 p;
    uint touching;
    float pushed;
};

// A rigid body's collider (Collider::linearVelocity.w) that moved the
// particle by `delta`: summed into its record, if the substep's record is
// this body's or none's yet (BodyPush).
void recordBodyPush(inout BodyPush record, uint c, Collider col, vec3 delta) {
    if (col.linearVelocity.w == 0.0) return;
    if (record.collider == kNoBodyPush) record.collider = c;
    if (record.collider != c) return;
    record.pushX += delta.x;
    record.pushY += delta.y;
    record.pushZ += delta.z;
}

// Whether the stages apply the friction of collider slot (or scene
// collider) `c`: not a scene collider's where the range's solver held it in
// its own solve (ParticlePush::colliderFrictionInSolve, the VBD sweeps).
bool frictionAfterSolve(uint c, uint colliderFrictionInSolve) {
    return colliderFrictionInSolve == 0u || c >= kSceneColliders;
}

// The friction a push applies to the particle's slip over the substep
// (particle/contact.glsl; ReferenceWorld::PushFriction on the CPU): the
// static cone alone (staticFriction, with the collider's mu_s; the kinetic
// mu_k acts in contactResponse), the projection after the solve's; or
// Coulomb's rule whole (coulombCorrection, mu_s and mu_k), projective
// dynamics' collision targets' (pd/local_collisions.comp).
const uint kPushStaticFriction = 0u;
const uint kPushCoulombFriction = 1u;

vec3 pushFriction(uint rule, vec3 slip, vec3 n, float depth, Collider col) {
    if (rule == kPushCoulombFriction) return coulombCorrection(slip, n, depth, col.size.w, col.friction);
    return staticFriction(slip, n, depth, col.size.w);
}

// `start`: the particle's position at the start of the substep (relative to
// `origin`, as p), from which its slip over the substep of length h is taken
// for the friction `rule` (pushFriction). `pushed` sums the normal pushes
// (ParticleContact::pushedOut), the kinetic friction's normal: a solid's
// bottom vertex is pushed out of the ground by the weight above it, over
// the iterations, and not by its own drift alone (docs/physics.md §3, "The
// normal push"). `frictionInSolve`: ParticlePush::colliderFrictionInSolve.
ProjectedContact projectContacts(vec3 p, uint candidates, uint touching, float pushed, uint copy, float stencilStep,
                                 vec3 origin, vec3 start, float h, uint frictionInSolve, uint rule,
                                 inout BodyPush record) {
    for (uint slot = 0; slot < colliderSlots(); ++slot) {
        if ((candidates & (1u << slot)) == 0u) continue;
        uint c = colliderOfSlot(slot, copy);
        Collider col = colliderFromOrigin(c, origin);
        float C = sdfWorld(col.type, col.position.xyz, col.rotation, col.size, p) - col.thickness;
        if (C >= 0.0) continue;
        vec3 g = sdfGradientTetra(col.type, col.position.xyz, col.rotation, col.size, p, stencilStep);
        vec3 delta = solveCollision(C, g);
        p += delta;
        pushed += length(delta);
        float gl = length(g);
        if (gl > 0.0 && frictionAfterSolve(slot, frictionInSolve)) {
            vec3 surface = h * colliderPointVelocity(col.linearVelocity.xyz, col.angularVelocity.xyz,
                                                     col.position.xyz, p);
            vec3 friction = pushFriction(rule, p - start - surface, g / gl, length(delta), col);
            p += friction;
            delta += friction;
        }
        recordBodyPush(record, c, col, delta);
        touching |= 1u << slot;
    }
    return ProjectedContact(p, touching, pushed);
}

// Friction and restitution for a particle at x, velocity v, that the
// projection pushed out of a collider this substep (contact.touching != 0).
// The normal is the stencil gradient of the nearest touching collider at x
// (its number in the world's list).
uint nearestTouching(vec3 x, uint touching, uint copy, vec3 origin) {
    uint nearest = 0u;
    float nearestC = 3.4e38;
    for (uint slot = 0; slot < colliderSlots(); ++slot) {
        if ((touching & (1u << slot)) == 0u) continue;
        uint c = colliderOfSlot(slot, copy);
        Collider col = colliderFromOrigin(c, origin);
        float C = sdfWorld(col.type, col.position.xyz, col.rotation, col.size, x) - col.thickness;
        if (C < nearestC) {
            nearestC = C;
            nearest = c;
        }
    }
    return nearest;
}

// contactResponse against collider `nearest` (nearestTouching); without its
// friction where the solve held it (frictionAfterSolve). Its friction's
// normal is the substep's push, contact.pushedOut over h.
vec3 contactResponseWith(uint nearest, vec3 x, vec3 v, ParticleContact contact, float stencilStep,
                         float restitutionThreshold, vec3 origin, uint frictionInSolve, float h) {
    Collider col = colliderFromOrigin(nearest, origin);
    vec3 g = sdfGradientTetra(col.type, col.position.xyz, col.rotation, col.size, x, stencilStep);
    float gl = length(g);
    if (gl <= 0.0) return v;
    vec3 vc = colliderPointVelocity(col.linearVelocity.xyz, col.angularVelocity.xyz, col.position.xyz, x);
    float friction = frictionAfterSolve(nearest, frictionInSolve) ? col.friction : 0.0;
    return movingContactVelocity(v, vc, g / gl, contact.approachSpeed, contact.pushedOut / h, friction,
                                 col.restitution, restitutionThreshold);
}

vec3 contactResponse(vec3 x, vec3 v, ParticleContact contact, uint copy, float stencilStep,
                     float restitutionThreshold, vec3 origin, uint frictionInSolve, float h) {
    return contactResponseWith(nearestTouching(x, contact.touching, copy, origin), x, v, contact, stencilStep,
                               restitutionThreshold, origin, frictionInSolve, h);
}

#endif
