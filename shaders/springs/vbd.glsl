// docs/physics.md §9.6, vertex block descent (Chen, Liu, Yang & Yuksel 2024):
// one colour of one iteration. Each vertex of the colour takes one 3x3
// Newton step on F with its neighbours fixed,
//   H_i = (m/h^2 + sigma/h) I + sum_e H_e + Q_ii I,
//   x_i -= H_i^-1 grad_i F,
// in place: no two vertices of a colour share an element, so no thread reads
// what another of the same dispatch writes (Gauss-Seidel across colours).
// vbd.comp is this pass; vbd_contacts.comp (VBD_CONTACTS) adds to F the
// contact energy of the vertex's touching pairs with particles of this
// range (§14), reading the other particle as Gauss-Seidel reads a
// neighbour: its iterate when it is of another colour, and from a snapshot
// of the iterate taken before the iteration when it is of this one (the
// same dispatch may be writing it). Both vertices of such a pair descend on
// its energy, so it exchanges momentum as a spring does; a pair with
// another solver's particle is left to the projection after the solves,
// which moves both.
#include "shared/kernel.glsl"
#include "springs/spring_types.h"

layout(push_constant) uniform Push { MsImplicitPush pc; };
layout(std430, binding = 0) readonly buffer Start { vec4 start[]; };
layout(std430, binding = 1) readonly buffer Inertia { vec4 inertia[]; };
layout(std430, binding = 2) buffer Iterate { vec4 iterate[]; };
layout(std430, binding = 3) readonly buffer Order { uint vertexOrder[]; };

#define MS_TOPOLOGY_BINDING 4
#include "springs/gather.glsl"

vec3 elementPosition(uint j) { return iterate[j].xyz; }

#ifdef VBD_CONTACTS
#include "math/real_glsl.h"
#include "contacts/contact_types.h"
#include "contacts/contact_math.glsl"
#include "contacts/contact_response.glsl"
layout(std430, binding = 8) readonly buffer ContactParticles { ContactParticle contactParticles[]; };
layout(std430, binding = 9) readonly buffer ContactCounts { uint contactCounts[]; };
layout(std430, binding = 10) readonly buffer ContactOffsets { uint contactOffsets[]; };
layout(std430, binding = 11) readonly buffer ContactNeighbours { uint contactNeighbours[]; };
layout(std430, binding = 12) readonly buffer ContactOf { uint contactOf[]; };
layout(std430, binding = 13) readonly buffer Snapshot { vec4 snapshot[]; };
layout(std430, binding = 14) readonly buffer OrderOf { uint orderOf[]; };  // per particle of the range

// The contact energy's gradient and Hessian at x_i, summed over the
// vertex's touching pairs within the range in list order (contactPenalty).
void addContacts(uint i, vec3 xi, float wi, inout vec3 gradient, inout mat3 hessian) {
    uint k = contactOf[i];
    if (k == kNotAContactParticle) return;
    ContactParticle a = contactParticles[k];
    uint first = contactOffsets[k];
    for (uint e = first; e < first + contactEntries(contactCounts[k], first, pc.contactCapacity); ++e) {
        uint l = contactNeighbours[e];
        ContactParticle b = contactParticles[l];
        uint j = b.particle;
        if (j < pc.firstParticle || j - pc.firstParticle >= pc.particleCount) continue;
        uint at = orderOf[j - pc.firstParticle];
        bool sameColour = at >= pc.first && at - pc.first < pc.count;
        vec3 xj = sameColour ? snapshot[j].xyz : iterate[j].xyz;
        float wj = start[j].w;
        float distance = a.rest.w + b.rest.w;
        if (!contactTouching(xi - xj, wi, wj, start[i].xyz, start[j].xyz, distance)) continue;
        ContactPenalty penalty = contactPenalty(xi, wi, start[i].xyz, xj, wj, start[j].xyz, a.rest.xyz - b.rest.xyz,
                                                distance, k < l, pc.dt);
        gradient += penalty.gradient;
        hessian += penalty.stiffness * outerProduct(penalty.n, penalty.n);
    }
}
#endif

void main() {
    if (gl_GlobalInvocationID.x >= pc.count) return;
    uint i = vertexOrder[pc.first + gl_GlobalInvocationID.x];
    vec4 x = iterate[i];
    if (x.w <= 0.0) return;
    MsParticle particle = msParticles[i - pc.firstParticle];
    float h = pc.dt;
    float inertiaWeight = 1.0 / (x.w * h * h);
    float dragWeight = particle.drag / h;
    SpringTerms s = springSums(i, particle, x.xyz);
    mat3 hessian = mat3(inertiaWeight + dragWeight + quadraticDiagonal(i, particle)) + s.hessian;
    vec3 x0 = start[i].xyz - vec3(pc.originX, pc.originY, pc.originZ);  // x and y are relative to the origin
    vec3 gradient = inertiaWeight * (x.xyz - inertia[i].xyz) + dragWeight * (x.xyz - x0) - s.force -
                    quadraticForce(i, particle, x.xyz);
#ifdef VBD_CONTACTS
    addContacts(i, x.xyz, x.w, gradient, hessian);
#endif
    // H_i is SPD (inertia plus clamped spring blocks plus Q_ii >= 0, plus
    // the contacts' n n^T); a vanishing determinant would mean a particle
    // with no mass.
    if (abs(determinant(hessian)) > 0.0) iterate[i] = vec4(x.xyz - inverse(hessian) * gradient, x.w);
}
