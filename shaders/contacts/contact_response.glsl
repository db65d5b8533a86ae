// One contact pair as a position constraint (docs/physics.md, "Contacts
// between objects"): C = |p_k - p_l| - (t_k + t_l) >= 0, projected with the
// inverse masses, and Coulomb friction on the relative tangential motion of
// the substep (Macklin et al. 2014, §6.1). Both particles of a pair compute
// it from their own side: the normal, the depth and the tangential motion
// change sign, so the two corrections are equal and opposite in momentum.
#ifndef VKSIM_CONTACT_RESPONSE_GLSL
#define VKSIM_CONTACT_RESPONSE_GLSL

// The list entries of particle k: what the detection wrote of them.
uint contactEntries(uint count, uint offset, uint capacity) {
    return offset >= capacity ? 0u : min(count, capacity - offset);
}

// Whether the colouring gave constraint c a colour, so that its colour's
// pass projects it (or it did not fit the list); the shader declares
// colours[].
#define contactColoured(c) ((c) == kNoConstraint || colours[c] < kContactColours)

bool contactActive(vec4 pk, vec4 pl, float distance) {
    vec3 d = pk.xyz - pl.xyz;
    return pk.w + pl.w > 0.0 && dot(d, d) < distance * distance;
}

// The correction of particle k from its contact with l (active), before the
// pair's share 1 / max(active_k, active_l).
vec3 contactCorrection(ContactParticle a, ContactParticle b, uint k, uint l, vec4 pk, vec4 pl, vec3 xk, vec3 xl) {
    float distance = a.rest.w + b.rest.w;
    vec3 d = pk.xyz - pl.xyz;
    float length2 = dot(d, d);
    vec3 n;
    if (length2 > 1e-12 * distance * distance) {
        n = d * inversesqrt(length2);
    } else {
        // On top of each other: apart along their rest offset (which also
        // changes sign with the side), else along y.
        vec3 rest = a.rest.xyz - b.rest.xyz;
        n = dot(rest, rest) > 0.0 ? normalize(rest) : vec3(0.0, k < l ? 1.0 : -1.0, 0.0);
    }
    float depth = distance - sqrt(length2);  // > 0
    float share = pk.w / (pk.w + pl.w);
    vec3 correction = depth * n;
    // Friction: the relative motion of the substep across the normal is
    // undone while it is within the cone mu * depth (static), else cut by
    // mu * depth (kinetic).
    float mu = sqrt(a.friction * b.friction);
    vec3 moved = (pk.xyz - xk) - (pl.xyz - xl);
    vec3 tangential = moved - dot(moved, n) * n;
    float slip = length(tangential);
    if (slip > 0.0) correction -= tangential * min(mu * depth / slip, 1.0);
    return share * correction;
}

#endif
