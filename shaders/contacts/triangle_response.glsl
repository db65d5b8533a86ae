// One four-particle constraint, vertex-triangle or edge-edge
// (docs/physics.md, "Contacts between objects"), for the passes over them:
// what it reads of the buffers and the math of contact_math.glsl on it.
// Both kinds are a pair constraint between two points of frozen weights:
// the vertex (or the first edge's point) and the triangle's (or the second
// edge's) point. The shader declares, before including this, x[] and p[]
// (the positions at the start of the substep and the working ones),
// particles[] (ContactParticle) and triangleContacts[] (TriangleContact).
// A shader whose working positions are elsewhere (the PBD workgroup solve's
// shared memory, pbd/workgroup_contacts.glsl) defines VKSIM_CONTACT_POSITIONS
// and the two readers below itself instead of x[] and p[].
#ifndef VKSIM_TRIANGLE_RESPONSE_GLSL
#define VKSIM_TRIANGLE_RESPONSE_GLSL
#include "math/real_glsl.h"
#include "math/coulomb_friction.glsl"
#include "contacts/contact_math.glsl"

#ifndef VKSIM_CONTACT_POSITIONS
// Store particle i's working position (xyz) and inverse mass (w), and its
// position at the start of the substep.
vec4 contactWorkingAt(uint i) { return p[i]; }
vec3 contactStartAt(uint i) { return x[i].xyz; }
#endif

// The four particles of constraint c, in role order (TriangleContact::particles).
uvec4 triangleParticles(uint c) { return triangleContacts[c].particles; }

// Whether a response pass over `pairs` (kContactPairs*) projects
// constraint c: every one, or those whose four particles all belong to a
// solver that projects contacts in its iterations.
bool triangleInPass(uvec4 k, uint pairs) {
    uint flags = particles[k.x].flags & particles[k.y].flags & particles[k.z].flags & particles[k.w].flags;
    return pairs == kContactPairsAll || (flags & kContactInIterations) != 0u;
}

// What the projection of constraint c reads, at the working positions now.
struct TriangleState {
    uint kind;     // kSurfaceVertexTriangle or kSurfaceEdgeEdge
    vec4 weights;  // TriangleContact::weights
    vec3 d, d0;    // the offset between the two points now, and at the start of the substep
    vec4 w;        // the four particles' inverse masses, in role order
    float wFirst, wSecond;  // the inverse masses of the two points
    float distance;
};

TriangleState triangleState(uint c, uvec4 k) {
    TriangleState s;
    s.kind = triangleContacts[c].kind;
    s.weights = triangleContacts[c].weights;
    ContactParticle r0 = particles[k.x], r1 = particles[k.y], r2 = particles[k.z], r3 = particles[k.w];
    vec4 p0 = contactWorkingAt(r0.particle), p1 = contactWorkingAt(r1.particle), p2 = contactWorkingAt(r2.particle),
         p3 = contactWorkingAt(r3.particle);
    vec3 x0 = contactStartAt(r0.particle), x1 = contactStartAt(r1.particle), x2 = contactStartAt(r2.particle),
         x3 = contactStartAt(r3.particle);
    s.w = vec4(p0.w, p1.w, p2.w, p3.w);
    if (s.kind == kSurfaceEdgeEdge) {
        s.d = contactEdgeOffset(s.weights, p0.xyz, p1.xyz, p2.xyz, p3.xyz);
        s.d0 = contactEdgeOffset(s.weights, x0, x1, x2, x3);
        s.wFirst = contactTriangleInverseMass(vec3(s.weights.xy, 0.0), p0.w, p1.w, 0.0);
        s.wSecond = contactTriangleInverseMass(vec3(s.weights.zw, 0.0), p2.w, p3.w, 0.0);
        s.distance = r0.rest.w + r2.rest.w;
    } else {
        s.d = contactTriangleOffset(s.weights.xyz, p0.xyz, p1.xyz, p2.xyz, p3.xyz);
        s.d0 = contactTriangleOffset(s.weights.xyz, x0, x1, x2, x3);
        s.wFirst = p0.w;
        s.wSecond = contactTriangleInverseMass(s.weights.xyz, p1.w, p2.w, p3.w);
        s.distance = r0.rest.w + r1.rest.w;
    }
    return s;
}

// Whether it pushes now (contact_math.glsl's contactTouching of the two points).
bool triangleActive(TriangleState s) {
    return contactTouching(s.d, s.wFirst, s.wSecond, s.d0, vec3(0.0), s.distance);
}

// Its corrections, before a Jacobi average's share: the first point's and the second's.
TriangleCorrection triangleCorrection(TriangleState s, uvec4 k) {
    ContactParticle r0 = particles[k.x], r1 = particles[k.y], r2 = particles[k.z], r3 = particles[k.w];
    if (s.kind == kSurfaceEdgeEdge) {
        vec3 rest = contactEdgeOffset(s.weights, r0.rest.xyz, r1.rest.xyz, r2.rest.xyz, r3.rest.xyz);
        return contactTriangleCorrection(s.d, s.wFirst, s.d0, s.wSecond, rest, s.distance,
                                         sqrt(r0.staticFriction * r2.staticFriction),
                                         sqrt(r0.friction * r2.friction));
    }
    vec3 rest = contactTriangleOffset(s.weights.xyz, r0.rest.xyz, r1.rest.xyz, r2.rest.xyz, r3.rest.xyz);
    return contactTriangleCorrection(s.d, s.wFirst, s.d0, s.wSecond, rest, s.distance,
                                     sqrt(r0.staticFriction * r1.staticFriction), sqrt(r0.friction * r1.friction));
}

// The correction of the constraint's particle of role `role`
// (TriangleContact::particles): vertex-triangle, 0 the vertex and 1..3 the
// corners a, b, c; edge-edge, 0..1 the first edge's ends, 2..3 the second's.
vec3 triangleRoleCorrection(TriangleCorrection correction, TriangleState s, uint role) {
    if (s.kind == kSurfaceEdgeEdge) {
        if (role < 2u) return contactFirstEdgeCorrection(correction, s.weights[role], s.w[role], s.wFirst);
        return contactCornerCorrection(correction, s.weights[role], s.w[role]);
    }
    if (role == 0u) return correction.vertex;
    return contactCornerCorrection(correction, s.weights[role - 1u], s.w[role]);
}

#endif
