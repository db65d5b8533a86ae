// One vertex-triangle constraint (docs/physics.md, "Contacts between
// objects"), for the passes over them: what it reads of the buffers and the
// math of contact_math.glsl on it. The shader declares, before including
// this, x[] and p[] (the positions at the start of the substep and the
// working ones), particles[] (ContactParticle), triangles[]
// (ContactTriangle) and triangleContacts[] (TriangleContact).
#ifndef VKSIM_TRIANGLE_RESPONSE_GLSL
#define VKSIM_TRIANGLE_RESPONSE_GLSL
#include "math/real_glsl.h"
#include "math/coulomb_friction.glsl"
#include "contacts/contact_math.glsl"

// The four particles of constraint c: the vertex, then the corners.
uvec4 triangleParticles(uint c) {
    TriangleContact contact = triangleContacts[c];
    ContactTriangle t = triangles[contact.triangle];
    return uvec4(contact.vertex, t.a, t.b, t.c);
}

// Whether a response pass over `pairs` (kContactPairs*) projects
// constraint c: every one, or those whose four particles all belong to a
// solver that projects contacts in its iterations.
bool triangleInPass(uvec4 k, uint pairs) {
    uint flags = particles[k.x].flags & particles[k.y].flags & particles[k.z].flags & particles[k.w].flags;
    return pairs == kContactPairsAll || (flags & kContactInIterations) != 0u;
}

// What the projection of constraint c reads, at the working positions now.
struct TriangleState {
    vec3 weights;
    vec3 d, d0;   // the offset p_k - q now and x_k - x_q at the start of the substep
    float wk, wa, wb, wc, wq;  // the inverse masses of the vertex, the corners and the point
    float distance;
};

TriangleState triangleState(uint c, uvec4 k) {
    TriangleState s;
    s.weights = triangleContacts[c].weights.xyz;
    ContactParticle v = particles[k.x], a = particles[k.y], b = particles[k.z], d = particles[k.w];
    vec4 pk = p[v.particle], pa = p[a.particle], pb = p[b.particle], pc = p[d.particle];
    s.d = contactTriangleOffset(s.weights, pk.xyz, pa.xyz, pb.xyz, pc.xyz);
    s.d0 = contactTriangleOffset(s.weights, x[v.particle].xyz, x[a.particle].xyz, x[b.particle].xyz,
                                 x[d.particle].xyz);
    s.wk = pk.w;
    s.wa = pa.w;
    s.wb = pb.w;
    s.wc = pc.w;
    s.wq = contactTriangleInverseMass(s.weights, pa.w, pb.w, pc.w);
    s.distance = v.rest.w + a.rest.w;
    return s;
}

// Whether it pushes now (contact_math.glsl's contactTouching of the vertex and the point).
bool triangleActive(TriangleState s) { return contactTouching(s.d, s.wk, s.wq, s.d0, vec3(0.0), s.distance); }

// Its corrections, before a Jacobi average's share: the vertex's and the point's.
TriangleCorrection triangleCorrection(TriangleState s, uvec4 k) {
    ContactParticle v = particles[k.x], a = particles[k.y], b = particles[k.z], d = particles[k.w];
    vec3 rest = contactTriangleOffset(s.weights, v.rest.xyz, a.rest.xyz, b.rest.xyz, d.rest.xyz);
    return contactTriangleCorrection(s.d, s.wk, s.d0, s.wq, rest, s.distance, sqrt(v.staticFriction * a.staticFriction),
                                     sqrt(v.friction * a.friction));
}

// The correction of the constraint's particle of role `role` (0: the
// vertex, 1..3: corners a, b, c).
vec3 triangleRoleCorrection(TriangleCorrection correction, TriangleState s, uint role) {
    if (role == 0u) return correction.vertex;
    if (role == 1u) return contactCornerCorrection(correction, s.weights.x, s.wa);
    if (role == 2u) return contactCornerCorrection(correction, s.weights.y, s.wb);
    return contactCornerCorrection(correction, s.weights.z, s.wc);
}

#endif
