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
// same dispatch may be writing it), and the step the pairs' lagged friction
// (contactFriction). Both vertices of such a pair descend on its energy,
// so it exchanges momentum as a spring does; a pair with
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
#include "springs/vbd_contact_partner.glsl"
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
    ContactEnergy contacts = contactEnergy(i, x.xyz);
    gradient += contacts.gradient;
    hessian += contacts.hessian;
    LaggedFriction friction = contactFriction(i, x.xyz, gradient, hessian);
    gradient += friction.gradient;
    hessian += friction.hessian;
#endif
    // H_i is SPD (inertia plus clamped spring blocks plus Q_ii >= 0, plus
    // the contacts' n n^T and their friction's I - n n^T, both scaled by
    // what is >= 0); a vanishing determinant would mean a particle with no
    // mass.
    if (abs(determinant(hessian)) > 0.0) iterate[i] = vec4(x.xyz - inverse(hessian) * gradient, x.w);
}
