// One contact pair as a position constraint (docs/physics.md, "Contacts
// between objects"), for the passes over the lists: their entries, and the
// pair's math of contact_math.glsl on ContactParticle records.
#ifndef VKSIM_CONTACT_RESPONSE_GLSL
#define VKSIM_CONTACT_RESPONSE_GLSL
#include "math/real_glsl.h"
#include "math/coulomb_friction.glsl"
#include "contacts/contact_math.glsl"

// The list entries of particle k: what the detection wrote of them.
uint contactEntries(uint count, uint offset, uint capacity) {
    return offset >= capacity ? 0u : min(count, capacity - offset);
}

// Whether a response pass over `pairs` (kContactPairs*) projects the pair of a and b.
bool contactInPass(ContactParticle a, ContactParticle b, uint pairs) {
    return pairs == kContactPairsAll || (a.flags & b.flags & kContactInIterations) != 0u;
}

// Whether the pair (k at pk, l at pl; w the inverse mass) pushes now.
bool contactActive(vec4 pk, vec4 pl, vec3 xk, vec3 xl, float distance) {
    return contactTouching(pk.xyz - pl.xyz, pk.w, pl.w, xk, xl, distance);
}

// The correction of particle k from its contact with l (active), before the
// pair's share 1 / max(active_k, active_l) (contact_math.glsl).
vec3 contactCorrection(ContactParticle a, ContactParticle b, uint k, uint l, vec4 pk, vec4 pl, vec3 xk, vec3 xl) {
    return contactCorrection(pk.xyz, pk.w, xk, pl.xyz, pl.w, xl, a.rest.xyz - b.rest.xyz, a.rest.w + b.rest.w,
                             sqrt(a.staticFriction * b.staticFriction), sqrt(a.friction * b.friction), k < l);
}

#endif
