// The contact energy of the implicit mass-spring methods and of the VBD
// solids (docs/physics.md §9.6, §14, §16): at x_i, the quadratic penalty of
// particle i's touching pairs of the last detection with particles of this
// range, in list order (contact_math.glsl's contactPenalty): its energy,
// gradient, and the positive semi-definite part of its Hessian's diagonal
// block. A pair with another solver's particle is left to the projection
// after the solves, which moves both; within the range both ends descend on
// the pair's energy, so it exchanges momentum as a spring does. Both
// methods also add the pairs' lagged friction: the vertex block descent
// sweeps per vertex step (contactFriction), Newton lagged per iteration
// (springs/newton_assemble.glsl; its line search's laggedContactFriction,
// with MS_LAGGED_FRICTION_BINDING, physics §14).
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

// The friction coefficients (mu_s, mu_k) of the pair of particle i's list
// entry e: the two objects' combined as every contact combines them.
vec2 contactEntryFriction(uint i, uint e) {
    ContactParticle a = contactParticles[contactOf[i]];
    ContactParticle b = contactParticles[contactNeighbours[e]];
    return vec2(sqrt(a.staticFriction * b.staticFriction), sqrt(a.friction * b.friction));
}

// The pairs' lagged friction's eps_v h: the same eps_v as the solids'
// friction against colliders in the sweeps (kVbdFrictionStickSpeed).
float contactStickSlip() { return kVbdFrictionStickSpeed * pc.dt; }

// Particle i's touching pairs' s depth summed at x_i: its pairs' lambda
// over 2 (contactPairNormalForce), of which each pair takes its share
// (Newton reads it per row from springs/newton_contact_totals.comp).
float contactNormalTotal(uint i, vec3 xi) {
    float normalTotal = 0.0;
    uvec2 list = contactList(i);
    for (uint e = list.x; e < list.x + list.y; ++e) {
        uint j;
        ContactPenalty penalty;
        if (contactEntryPenalty(i, xi, e, j, penalty)) normalTotal += penalty.stiffness * penalty.depth;
    }
    return normalTotal;
}

// The lagged friction of particle i's touching pairs at x_i in a vertex
// block descent step (contact_math.glsl's contactPairFriction).
// `gradient` and `hessian` are the vertex step's other terms, the contact
// energy's included: what holds the vertex.
LaggedFriction contactFriction(uint i, vec3 xi, vec3 gradient, mat3 hessian) {
    LaggedFriction sum = LaggedFriction(vec3(0.0), mat3(0.0));
    uvec2 list = contactList(i);
    float normalTotal = contactNormalTotal(i, xi);
    if (!(normalTotal > 0.0)) return sum;
    for (uint e = list.x; e < list.x + list.y; ++e) {
        uint j;
        ContactPenalty penalty;
        if (!contactEntryPenalty(i, xi, e, j, penalty)) continue;
        vec2 mu = contactEntryFriction(i, e);
        LaggedFriction f = contactPairFriction(penalty, xi - contactPartner(j), start[i].xyz - start[j].xyz,
                                               normalTotal, mu.x, mu.y, contactStickSlip(), gradient, hessian);
        sum.gradient += f.gradient;
        sum.hessian += f.hessian;
    }
    return sum;
}

#ifdef MS_LAGGED_FRICTION_BINDING
// Newton's line search: the couplings of the iteration's assembly
// (springs/newton_assemble.glsl), which hold each touching pair's lagged
// normal and load.
layout(std430, binding = MS_LAGGED_FRICTION_BINDING) readonly buffer Couplings { MsContactCoupling couplings[]; };

struct ContactFrictionEnergy {
    float energy;
    vec3 gradient;
};

// The lagged friction of particle i's pairs at x_i as the iteration
// lagged it (contact_math.glsl's contactPairFrictionLoad): IPC's
// D = mu lambda f0(|u|) per pair and its gradient mu lambda f1(|u|) u/|u|,
// u the pair's slip off the lagged normal.
ContactFrictionEnergy laggedContactFriction(uint i, vec3 xi) {
    ContactFrictionEnergy sum = ContactFrictionEnergy(0.0, vec3(0.0));
    uvec2 list = contactList(i);
    for (uint e = list.x; e < list.x + list.y; ++e) {
        MsContactCoupling c = couplings[e];
        if (!(c.frictionLoad > 0.0)) continue;
        uint j = pc.firstParticle + c.row;
        vec3 n = vec3(c.nx, c.ny, c.nz);
        vec3 u = contactPairSlip(n, xi - contactPartner(j), start[i].xyz - start[j].xyz);
        sum.energy += c.frictionLoad * frictionF0(length(u), contactStickSlip());
        sum.gradient += laggedFrictionCurvature(u, c.frictionLoad, contactStickSlip()) * u;
    }
    return sum;
}
#endif

#endif
