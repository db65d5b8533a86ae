// One vertex-triangle constraint (docs/physics.md, "Contacts between
// objects"), for the passes over them: what it reads of the buffers and the
// math of contact_math.glsl on it. The shader declares, before including
// this, x[] and p[] (the positions at the start of the substep and the
// working ones), particles[] (ContactParticle), triangles[]
// (ContactTriangle) and triangleContacts[] (TriangleContact).
#ifndef VKSIM_TRIANGLE_RESPONSE_GLSL
#define VKSIM_TRIANGLE_RESPONSE_GLSL
#include "math/real_glsl.h"
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
    vec4 pk;   // the vertex: working position, inverse mass
    vec3 xk;
    vec4 pa, pb, pc;  // the corners
    vec3 q, xq;       // the triangle's point, now and at the start of the substep
    float wq;
    float distance;
};

TriangleState triangleState(uint c, uvec4 k) {
    TriangleState s;
    s.weights = triangleContacts[c].weights.xyz;
    ContactParticle v = particles[k.x], a = particles[k.y], b = particles[k.z], d = particles[k.w];
    s.pk = p[v.particle];
    s.xk = x[v.particle].xyz;
    s.pa = p[a.particle];
    s.pb = p[b.particle];
    s.pc = p[d.particle];
    s.q = contactTrianglePoint(s.weights, s.pa.xyz, s.pb.xyz, s.pc.xyz);
    s.xq = contactTrianglePoint(s.weights, x[a.particle].xyz, x[b.particle].xyz, x[d.particle].xyz);
    s.wq = contactTriangleInverseMass(s.weights, s.pa.w, s.pb.w, s.pc.w);
    s.distance = v.rest.w + a.rest.w;
    return s;
}

// Whether it pushes now (contact_math.glsl's contactTouching of the vertex and the point).
bool triangleActive(TriangleState s) {
    return contactTouching(s.pk.xyz - s.q, s.pk.w, s.wq, s.xk, s.xq, s.distance);
}

// Its corrections, before a Jacobi average's share: the vertex's and the point's.
TriangleCorrection triangleCorrection(TriangleState s, uvec4 k) {
    ContactParticle v = particles[k.x], a = particles[k.y], b = particles[k.z], d = particles[k.w];
    vec3 rest = v.rest.xyz - contactTrianglePoint(s.weights, a.rest.xyz, b.rest.xyz, d.rest.xyz);
    return contactTriangleCorrection(s.pk.xyz, s.pk.w, s.xk, s.q, s.wq, s.xq, rest, s.distance,
                                     sqrt(v.friction * a.friction));
}

// The correction of the constraint's particle of role `role` (0: the
// vertex, 1..3: corners a, b, c).
vec3 triangleRoleCorrection(TriangleCorrection correction, TriangleState s, uint role) {
    if (role == 0u) return correction.vertex;
    if (role == 1u) return contactCornerCorrection(correction, s.weights.x, s.pa.w);
    if (role == 2u) return contactCornerCorrection(correction, s.weights.y, s.pb.w);
    return contactCornerCorrection(correction, s.weights.z, s.pc.w);
}

#endif
