// The contact energy of the implicit mass-spring methods and of the VBD
// solids (docs/physics.md §9.6, §14, §16): at x_i, the quadratic penalty of
// particle i's touching pairs of the last detection with particles of this
// range, in list order (contact_math.glsl's contactPenalty): its energy,
// gradient, and the positive semi-definite part of its Hessian's diagonal
// block. A pair with another solver's particle is left to the projection
// after the solves, which moves both; within the range both ends descend on
// the pair's energy, so it exchanges momentum as a spring does. The vertex
// block descent sweeps also add the pairs' lagged friction
// (contactFriction; Newton does not yet, physics §14).
//
// The including pass declares pc (MsImplicitPush or VbdPush: firstParticle,
// particleCount, dt, contactCapacity), start[] (x^0, w = inverse mass),
// defines MS_CONTACTS_BINDING (five bindings from there) and
// `vec3 contactPartner(uint j)`, where it reads the other particle j at
// (relative to the solver's origin, as x_i is).
#ifndef VKSIM_SPRINGS_CONTACT_ENERGY_GLSL
#define VKSIM_SPRINGS_CONTACT_ENERGY_GLSL
#include "math/real_glsl.h"
#include "contacts/contact_types.h"
#include "vbd/vbd_types.h"
#include "math/coulomb_friction.glsl"
#include "contacts/contact_math.glsl"
#include "contacts/contact_response.glsl"

layout(std430, binding = MS_CONTACTS_BINDING) readonly buffer ContactParticles { ContactParticle contactParticles[]; };
layout(std430, binding = MS_CONTACTS_BINDING + 1) readonly buffer ContactCounts { uint contactCounts[]; };
layout(std430, binding = MS_CONTACTS_BINDING + 2) readonly buffer ContactOffsets { uint contactOffsets[]; };
layout(std430, binding = MS_CONTACTS_BINDING + 3) readonly buffer ContactNeighbours { uint contactNeighbours[]; };
layout(std430, binding = MS_CONTACTS_BINDING + 4) readonly buffer ContactOf { uint contactOf[]; };

// Particle i's list entries: the first, and how many the detection wrote
// (none for a particle that is not a contact particle).
uvec2 contactList(uint i) {
    uint k = contactOf[i];
    if (k == kNotAContactParticle) return uvec2(0u);
    uint first = contactOffsets[k];
    return uvec2(first, contactEntries(contactCounts[k], first, pc.contactCapacity));
}

// Entry e of particle i's list (i at x_i): whether its pair touches a
// particle j of this range, then j and the pair's penalty.
bool contactEntryPenalty(uint i, vec3 xi, uint e, out uint j, out ContactPenalty penalty) {
    uint k = contactOf[i];
    uint l = contactNeighbours[e];
    ContactParticle a = contactParticles[k];
    ContactParticle b = contactParticles[l];
    j = b.particle;
    if (j < pc.firstParticle || j - pc.firstParticle >= pc.particleCount) return false;
    vec3 xj = contactPartner(j);
    float wi = start[i].w, wj = start[j].w;
    float distance = a.rest.w + b.rest.w;
    if (!contactTouching(xi - xj, wi, wj, start[i].xyz, start[j].xyz, distance)) return false;
    penalty = contactPenalty(xi, wi, start[i].xyz, xj, wj, start[j].xyz, a.rest.xyz - b.rest.xyz, distance, k < l,
                             pc.dt);
    return true;
}

struct ContactEnergy {
    float energy;
    vec3 gradient;
    mat3 hessian;
};

ContactEnergy contactEnergy(uint i, vec3 xi) {
    ContactEnergy sum = ContactEnergy(0.0, vec3(0.0), mat3(0.0));
    uvec2 list = contactList(i);
    for (uint e = list.x; e < list.x + list.y; ++e) {
        uint j;
        ContactPenalty penalty;
        if (!contactEntryPenalty(i, xi, e, j, penalty)) continue;
        sum.energy += penalty.energy;
        sum.gradient += penalty.gradient;
        sum.hessian += penalty.stiffness * outerProduct(penalty.n, penalty.n);
    }
    return sum;
}

// The lagged friction of particle i's touching pairs at x_i
// (contact_math.glsl's contactPairFriction), each pair's coefficients the
// two objects' combined as every contact combines them, and the same
// eps_v as the solids' friction against colliders in the sweeps
// (kVbdFrictionStickSpeed). `gradient` and `hessian` are the vertex step's
// other terms, the contact energy's included: what holds the vertex.
LaggedFriction contactFriction(uint i, vec3 xi, vec3 gradient, mat3 hessian) {
    LaggedFriction sum = LaggedFriction(vec3(0.0), mat3(0.0));
    uvec2 list = contactList(i);
    float normalTotal = 0.0;
    for (uint e = list.x; e < list.x + list.y; ++e) {
        uint j;
        ContactPenalty penalty;
        if (contactEntryPenalty(i, xi, e, j, penalty)) normalTotal += penalty.stiffness * penalty.depth;
    }
    if (!(normalTotal > 0.0)) return sum;
    ContactParticle a = contactParticles[contactOf[i]];
    for (uint e = list.x; e < list.x + list.y; ++e) {
        uint j;
        ContactPenalty penalty;
        if (!contactEntryPenalty(i, xi, e, j, penalty)) continue;
        ContactParticle b = contactParticles[contactNeighbours[e]];
        LaggedFriction f = contactPairFriction(
            penalty, xi - contactPartner(j), start[i].xyz - start[j].xyz, normalTotal,
            sqrt(a.staticFriction * b.staticFriction), sqrt(a.friction * b.friction), kVbdFrictionStickSpeed * pc.dt,
            gradient, hessian);
        sum.gradient += f.gradient;
        sum.hessian += f.hessian;
    }
    return sum;
}

#endif
