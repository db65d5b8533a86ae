// One contact pair as a position constraint (docs/physics.md, "Contacts
// between objects"): C = |p_k - p_l| - (t_k + t_l) >= 0 (along the start
// offset for a pair that passed through itself in the substep), projected
// with the inverse masses, and Coulomb friction on the relative tangential motion of
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

// Whether particles at p_k, p_l passed each other's centres in the
// substep: their offset turned by more than a right angle from its start
// x_k - x_l. The limit of the motion this catches is the detection's
// (docs/physics.md, "How fast a particle may move").
bool contactCrossed(vec3 d, vec3 xk, vec3 xl) { return dot(d, xk - xl) < 0.0; }

// Whether the pair is closer than its contact distance, or crossed.
bool contactActive(vec4 pk, vec4 pl, vec3 xk, vec3 xl, float distance) {
    vec3 d = pk.xyz - pl.xyz;
    return pk.w + pl.w > 0.0 && (dot(d, d) < distance * distance || contactCrossed(d, xk, xl));
}

// The correction of particle k from its contact with l (active), before the
// pair's share 1 / max(active_k, active_l).
vec3 contactCorrection(ContactParticle a, ContactParticle b, uint k, uint l, vec4 pk, vec4 pl, vec3 xk, vec3 xl) {
    float distance = a.rest.w + b.rest.w;
    vec3 d = pk.xyz - pl.xyz;
    float length2 = dot(d, d);
    vec3 n;
    float depth;  // > 0
    if (contactCrossed(d, xk, xl)) {
        // Passed through each other: back to the side they started on.
        n = normalize(xk - xl);
        depth = distance - dot(d, n);
    } else {
        if (length2 > 1e-12 * distance * distance) {
            n = d * inversesqrt(length2);
        } else {
            // On top of each other: apart along their rest offset (which
            // also changes sign with the side), else along y.
            vec3 rest = a.rest.xyz - b.rest.xyz;
            n = dot(rest, rest) > 0.0 ? normalize(rest) : vec3(0.0, k < l ? 1.0 : -1.0, 0.0);
        }
        depth = distance - sqrt(length2);
    }
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
