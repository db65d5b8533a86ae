// The math of one contact pair between objects (docs/physics.md §14),
// shared by the GPU's passes (contact_response.glsl) and the CPU reference
// (engine/contacts/contact_reference_solve.h, through
// engine/geometry/shared_math.h). Written to the real rules of
// shaders/math/real_glsl.h; it includes nothing (its includer includes
// math/coulomb_friction.glsl first).
#ifndef VKSIM_CONTACT_MATH_GLSL
#define VKSIM_CONTACT_MATH_GLSL

// The colouring's priority of the pair (k, l) (contact_colour.comp): a hash,
// so the same pair keeps it from substep to substep.
uint contactPairHash(uint k, uint l) {
    uint h = (k * 0x9E3779B1u) ^ ((l + 0x7F4A7C15u) * 0x85EBCA77u);
    h ^= h >> 15u;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12u;
    return h;
}

// The colour a constraint of priority `priority` proposes in colouring
// round `round` (contact_colour.comp), one of the colours set in
// `candidates` (not 0), drawn by a hash of both: a constraint that lost a
// colour draws again from a different hash in the next round, and two
// constraints that compete draw apart.
uint contactColourProposal(uint priority, uint round, uint candidates) {
    uint h = (priority ^ (round * 0x9E3779B9u)) * 0x7FEB352Du;
    h ^= h >> 15u;
    h *= 0x846CA68Bu;
    h ^= h >> 16u;
    uint count = 0u;
    for (uint bit = 0u; bit < 32u; ++bit) count += (candidates >> bit) & 1u;
    uint pick = h % count;
    for (uint bit = 0u; bit < 32u; ++bit)
        if (((candidates >> bit) & 1u) != 0u) {
            if (pick == 0u) return bit;
            --pick;
        }
    return 0u;  // not reached: `candidates` has `count` bits
}

// Whether particles with offset d = p_k - p_l passed each other's centres
// in the substep: the offset turned by more than a right angle from its
// start x_k - x_l. The limit of the motion this catches is the detection's
// (docs/physics.md, "How fast a particle may move").
bool contactCrossed(real3 d, real3 xk, real3 xl) { return dot(d, xk - xl) < real(0); }

// Whether the pair pushes: one of them can move (inverse masses wk, wl) and
// it is closer than its contact distance, or crossed.
bool contactTouching(real3 d, real wk, real wl, real3 xk, real3 xl, real distance) {
    return wk + wl > real(0) && (dot(d, d) < distance * distance || contactCrossed(d, xk, xl));
}

// The direction n from l to k that a touching pair pushes k along, and its
// depth (> 0) below the contact distance: along the offset d = p_k - p_l,
// or, when crossed, along the start offset x_k - x_l, back to the side they
// started on. `rest` is r_k - r_l in the rest shape, the direction for
// particles on top of each other, `kFirst` whether k < l (the direction for
// those also on top of each other at rest). From l's side n changes sign.
struct ContactNormal {
    real3 n;
    real depth;
};

ContactNormal contactNormal(real3 d, real3 xk, real3 xl, real3 rest, real distance, bool kFirst) {
    real length2 = dot(d, d);
    real3 n;
    real depth;
    if (contactCrossed(d, xk, xl)) {
        n = normalize(xk - xl);
        depth = distance - dot(d, n);
    } else {
        if (length2 > real(1e-12) * distance * distance) {
            n = d * inversesqrt(length2);
        } else if (dot(rest, rest) > real(0)) {
            n = normalize(rest);
        } else {
            n = real3(real(0), kFirst ? real(1) : real(-1), real(0));
        }
        depth = distance - sqrt(length2);
    }
    return ContactNormal(n, depth);
}

// The correction of particle k (at pk, inverse mass wk, at xk at the start
// of the substep) from its touching contact with l, before the pair's
// share of a Jacobi average: C = |p_k - p_l| - distance >= 0 along the
// offset (along the start offset when crossed), with the inverse masses,
// and Coulomb friction on the pair's tangential motion of the substep
// (Macklin et al. 2014, §6.1): undone within the static cone muStatic *
// depth, else cut by muKinetic * depth (frictionMagnitude); `rest` and
// `kFirst` as for contactNormal.
// Computed from l's side the normal, depth and motion change sign, so the
// two corrections are equal and opposite in momentum.
real3 contactCorrection(real3 pk, real wk, real3 xk, real3 pl, real wl, real3 xl, real3 rest, real distance,
                        real muStatic, real muKinetic, bool kFirst) {
    real3 d = pk - pl;
    ContactNormal contact = contactNormal(d, xk, xl, rest, distance, kFirst);
    real3 n = contact.n;
    real depth = contact.depth;
    real3 correction = depth * n;
    // (p_k - x_k) - (p_l - x_l), from the two offsets: p may be relative
    // to its range's origin and x not, and far from the world origin the
    // offsets keep the precision the displacements would lose.
    real3 moved = d - (xk - xl);
    real3 tangential = moved - dot(moved, n) * n;
    real slip = length(tangential);
    if (slip > real(0))
        correction = correction - tangential * (frictionMagnitude(slip, depth, muStatic, muKinetic) / slip);
    return (wk / (wk + wl)) * correction;
}

// The barycentric weights of the point of triangle (a, b, c) closest to p
// (Ericson 2005, "Real-Time Collision Detection", §5.1.5: the Voronoi
// region of p among the corners, edges and face). A degenerate triangle
// (no area) gives its closest corner or edge point as well, or corner a.
real3 contactClosestOnTriangle(real3 p, real3 a, real3 b, real3 c) {
    real3 ab = b - a;
    real3 ac = c - a;
    real3 ap = p - a;
    real d1 = dot(ab, ap);
    real d2 = dot(ac, ap);
    if (d1 <= real(0) && d2 <= real(0)) return real3(real(1), real(0), real(0));
    real3 bp = p - b;
    real d3 = dot(ab, bp);
    real d4 = dot(ac, bp);
    if (d3 >= real(0) && d4 <= d3) return real3(real(0), real(1), real(0));
    real vc = d1 * d4 - d3 * d2;
    if (vc <= real(0) && d1 >= real(0) && d3 <= real(0) && d1 - d3 > real(0)) {
        real v = d1 / (d1 - d3);
        return real3(real(1) - v, v, real(0));
    }
    real3 cp = p - c;
    real d5 = dot(ab, cp);
    real d6 = dot(ac, cp);
    if (d6 >= real(0) && d5 <= d6) return real3(real(0), real(0), real(1));
    real vb = d5 * d2 - d1 * d6;
    if (vb <= real(0) && d2 >= real(0) && d6 <= real(0) && d2 - d6 > real(0)) {
        real w = d2 / (d2 - d6);
        return real3(real(1) - w, real(0), w);
    }
    real va = d3 * d6 - d5 * d4;
    if (va <= real(0) && d4 - d3 >= real(0) && d5 - d6 >= real(0) && (d4 - d3) + (d5 - d6) > real(0)) {
        real w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return real3(real(0), real(1) - w, w);
    }
    real sum = va + vb + vc;
    if (!(sum > real(0))) return real3(real(1), real(0), real(0));
    real v = vb / sum;
    real w = vc / sum;
    return real3(real(1) - v - w, v, w);
}

// How many weights of a closest point (contactClosestOnTriangle, which
// gives an edge's point exactly one weight 0 and a corner's exactly two)
// are 0: none on the face, one on an edge, two at a corner.
uint contactZeroWeights(real3 weights) {
    return uint(weights.x == real(0)) + uint(weights.y == real(0)) + uint(weights.z == real(0));
}

// The corner opposite the edge that a closest point with one weight 0 lies on.
uint contactOppositeCorner(real3 weights) {
    return weights.x == real(0) ? 0u : (weights.y == real(0) ? 1u : 2u);
}

// The corner of triangle n that is not a corner of triangle s, two triangles
// sharing an edge (their contact particle numbers): the one across it.
uint contactCornerOff(uvec3 s, uvec3 n) {
    for (uint i = 0u; i < 2u; ++i)
        if (n[i] != s.x && n[i] != s.y && n[i] != s.z) return i;
    return 2u;
}

// The offset p - q from the point q of weights `weights` of triangle
// (a, b, c) to p, from the differences to corner a: far from the origin
// they keep the precision that q's coordinates would lose.
real3 contactTriangleOffset(real3 weights, real3 p, real3 a, real3 b, real3 c) {
    return (p - a) - (weights.y * (b - a) + weights.z * (c - a));
}

// The inverse mass of the triangle's point of weights `weights`
// (inverse masses wa, wb, wc): moving it by a correction moves each corner
// by its weight times its inverse mass over this (Bridson et al. 2002).
real contactTriangleInverseMass(real3 weights, real wa, real wb, real wc) {
    return weights.x * weights.x * wa + weights.y * weights.y * wb + weights.z * weights.z * wc;
}

// A vertex-triangle constraint (docs/physics.md §14) is the pair
// constraint between the vertex k and the triangle's point q of frozen
// weights, a particle of inverse mass wq (contactTriangleInverseMass): the
// same normal, depth and friction as contactCorrection's, from each side,
// on the offset d = p_k - q and its start d0 = x_k - x_q
// (contactTriangleOffset). `rest` is r_k - r_q in the rest shape. The
// point's correction moves each corner i by weight_i w_i / wq of it
// (contactCornerCorrection), so that the corners' momenta sum to the
// point's, equal and opposite to the vertex's:
// sum_i m_i dx_i = dq / wq = -m_k dp_k.
struct TriangleCorrection {
    real3 vertex;
    real3 point;
    real pointInverseMass;
};

TriangleCorrection contactTriangleCorrection(real3 d, real wk, real3 d0, real wq, real3 rest, real distance,
                                             real muStatic, real muKinetic) {
    real3 zero = real3(real(0), real(0), real(0));
    return TriangleCorrection(
        contactCorrection(d, wk, d0, zero, wq, zero, rest, distance, muStatic, muKinetic, true),
        contactCorrection(-d, wq, -d0, zero, wk, zero, -rest, distance, muStatic, muKinetic, false), wq);
}

// The correction of a corner of weight `weight` and inverse mass `w`.
real3 contactCornerCorrection(TriangleCorrection correction, real weight, real w) {
    if (correction.pointInverseMass <= real(0)) return real3(real(0), real(0), real(0));
    return (weight * w / correction.pointInverseMass) * correction.point;
}

// The parameters (s, t) of the closest points a0 + s (a1 - a0) and
// b0 + t (b1 - b0) of two segments (Ericson 2005, "Real-Time Collision
// Detection", §5.1.9), each clamped to [0, 1]. Degenerate cases give a
// closest pair as well, never a division by zero: a segment of no length
// is its first end; near-parallel segments (the sine of their angle
// squared below 1e-4, an angle under 0.6 degrees: float's a e - b^2 has an
// error of about 1e-7 a e, so above the bound s is good to 1e-3 of the
// segment, and below it ill-conditioned) start from s = 0 and take the t
// closest to it, then the s closest to that.
real2 contactClosestOnSegments(real3 a0, real3 a1, real3 b0, real3 b1) {
    real3 u = a1 - a0;
    real a = dot(u, u);
    real3 v = b1 - b0;
    real e = dot(v, v);
    real3 r = a0 - b0;
    real f = dot(v, r);
    if (!(a > real(0)) && !(e > real(0))) return real2(real(0), real(0));
    if (!(a > real(0))) return real2(real(0), clamp(f / e, real(0), real(1)));
    real c = dot(u, r);
    if (!(e > real(0))) return real2(clamp(-c / a, real(0), real(1)), real(0));
    real b = dot(u, v);
    real denominator = a * e - b * b;
    real s = real(0);
    if (denominator > real(1e-4) * a * e) s = clamp((b * f - c * e) / denominator, real(0), real(1));
    real t = (b * s + f) / e;
    if (t < real(0)) {
        t = real(0);
        s = clamp(-c / a, real(0), real(1));
    } else if (t > real(1)) {
        t = real(1);
        s = clamp((b - c) / a, real(0), real(1));
    }
    return real2(s, t);
}

// Whether the closest points (s, t) of two edges (contactClosestOnSegments)
// both lie inside their edges. At an end the closest pair is a vertex's:
// the vertex-triangle constraint of that end on a triangle of the other
// edge (or, at two ends, their pair) holds it, so the edge-edge
// constraint is left out (docs/physics.md, "Edge-edge contacts").
bool contactEdgesCrossInside(real2 at) {
    return at.x > real(0) && at.x < real(1) && at.y > real(0) && at.y < real(1);
}

// The offset pA - pB between the points of weights (w0, w1) on edge
// (a0, a1) and (w2, w3) on edge (b0, b1) (`weights`, each pair summing to
// one), from the differences to a0 and b0, which keep the precision far
// from the origin that the points' coordinates would lose.
real3 contactEdgeOffset(real4 weights, real3 a0, real3 a1, real3 b0, real3 b1) {
    return (a0 - b0) + weights[1] * (a1 - a0) - weights[3] * (b1 - b0);
}

// An edge-edge constraint (docs/physics.md §14) is the pair constraint
// between the two edges' points of frozen weights, each a particle of the
// inverse mass of contactTriangleInverseMass over its two ends: the
// vertex-triangle constraint's contactTriangleCorrection with the first
// edge's point as its vertex. The first point's correction moves each of
// its ends by weight w / wA of it (wA its inverse mass), as
// contactCornerCorrection moves the corners by the second point's.
real3 contactFirstEdgeCorrection(TriangleCorrection correction, real weight, real w, real wA) {
    if (wA <= real(0)) return real3(real(0), real(0), real(0));
    return (weight * w / wA) * correction.vertex;
}

// Vertex block descent's contact energy (docs/physics.md §9.6, §14): a
// touching pair as the quadratic penalty E = s/2 depth^2, with the stiffness
// s = 1 / ((wk + wl) h^2), the pair's reduced mass over h^2 (no parameter:
// it weighs the contact as the inertia weighs the particles, so that one
// block step closes a share of the depth whatever the masses). Its gradient
// with respect to p_k is -s depth n; of its Hessian the part that stays
// positive semi-definite, s n n^T (the other, -s depth/|d| (I - n n^T),
// is dropped, as the clamped spring Hessians drop theirs, §9.3).
struct ContactPenalty {
    real3 gradient;
    real3 n;
    real stiffness;
    real energy;  // s/2 depth^2
    real depth;
};

ContactPenalty contactPenalty(real3 pk, real wk, real3 xk, real3 pl, real wl, real3 xl, real3 rest, real distance,
                              bool kFirst, real h) {
    ContactNormal contact = contactNormal(pk - pl, xk, xl, rest, distance, kFirst);
    real stiffness = real(1) / ((wk + wl) * h * h);
    return ContactPenalty(-stiffness * contact.depth * contact.n, contact.n, stiffness,
                          real(0.5) * stiffness * contact.depth * contact.depth, contact.depth);
}

// A touching pair's normal force for its lagged friction, lambda = 2 s
// depth (contactPairFriction has why).
real contactPairNormalForce(ContactPenalty penalty) { return real(2) * penalty.stiffness * penalty.depth; }

// A pair's relative tangential motion over the substep, off the normal n:
// (p_k - x_k) - (p_l - x_l) from the offsets d = p_k - p_l and
// d0 = x_k - x_l.
real3 contactPairSlip(real3 n, real3 d, real3 d0) {
    real3 u = d - d0;
    return u - dot(u, n) * n;
}

// The friction of a touching pair in vertex block descent's step of k
// (docs/physics.md §14): the lagged friction of math/coulomb_friction.glsl
// (laggedFriction), as the VBD paper adds it to its collisions (Chen et
// al. 2024; IPC's, Li et al. 2020, §5). Its normal force, held for the
// step, is lambda = 2 s depth: the penalty pushes k with s depth, and the
// projection after the solve pushes the depth it leaves, split by inverse
// mass, with as much again over the substep (depth / ((w_k + w_l) h^2));
// with the penalty's alone a VBD cloth resting on a 20 degree slope of
// cloth at mu = 0.6 crept 3 mm in 0.2 s (29 mm with no friction in the
// sweeps; with both, 1e-10 m), as the colliders' friction counts both
// (vbd/vbd_collider.glsl). The slip u is the pair's
// relative tangential motion over the substep, (p_k - x_k) - (p_l - x_l) off
// n, from the offsets d = p_k - p_l and d0 = x_k - x_l (far from the origin
// they keep the precision the displacements would lose); mu_s and mu_k are
// the pair's (sqrt of the two objects'). What holds k where it sticks is
// the step's other terms (`gradient`, `hessian`: k's G without friction at
// p_k) moved there, gradient - hessian u, of which the pair takes the share
// lambda / `normalTotal` (k's pairs' lambda summed): a vertex resting on
// several particles sticks while the force along the surface lies inside
// mu_s times all of them. From l's side n and u change sign, so the pair's
// forces are equal and opposite.
LaggedFriction contactPairFriction(ContactPenalty penalty, real3 d, real3 d0, real normalTotal, real muStatic,
                                   real muKinetic, real stickSlip, real3 gradient, real3x3 hessian) {
    real normalForce = contactPairNormalForce(penalty);
    real3 u = contactPairSlip(penalty.n, d, d0);
    real3 hold = (gradient - hessian * u) * (normalForce / normalTotal);
    return laggedFriction(penalty.n, u, normalForce, hold, muStatic, muKinetic, stickSlip);
}

// Newton's lagged friction of a touching pair (docs/physics.md §14): IPC's
// D = mu lambda f0(|u|) (Li et al. 2020, §5), its normal n and its load
// mu lambda taken once per Newton iteration at the iterate (penalty, d: the
// pair there) and held through the iteration's line search, so that the
// search descends on one energy. lambda = s depth, the contact energy's
// normal force, as IPC takes it from its barrier: Newton converges the
// penalty, which then carries the particle's load, and the projection
// after the solve adds only the depth of one push per particle, not per
// pair; contactPairFriction's 2 s depth gave a Newton cloth sliding on a
// cloth slope at mu = 0.2 1.36 of Coulomb's mu g cos theta (s depth: 0.83;
// tests/gpu/contacts_test.cpp). mu by
// frictionSticks from what would hold the pair where it sticks, the slip u
// undone over the substep by the pair's reduced mass, s u (s = 1 / ((w_k +
// w_l) h^2), the penalty's stiffness), of which the pair takes its `share`
// (s depth over the sum of s depth of the pairs of the end that has the
// most of its push from this pair; contactPairHoldShare): a particle
// resting on several sticks while the slip's force lies inside mu_s times
// all of them. The slip, not the rest of the row's gradient as
// contactPairFriction's hold: both ends must take the same mu for the pair
// to have one energy, and from l's side u changes sign only. The load
// mu lambda; 0 for a pair that does not touch.
real contactPairFrictionLoad(ContactPenalty penalty, real3 d, real3 d0, real share, real muStatic, real muKinetic) {
    real normalForce = penalty.stiffness * penalty.depth;
    real3 hold = (share * penalty.stiffness) * contactPairSlip(penalty.n, d, d0);
    return laggedFrictionCoefficient(penalty.n, normalForce, hold, muStatic, muKinetic) * normalForce;
}

#endif
