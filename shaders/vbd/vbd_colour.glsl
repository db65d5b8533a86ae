// docs/physics.md §16, vertex block descent for tetrahedral solids (Chen,
// Liu, Yang & Yuksel 2024): one colour of one iteration. Each vertex i of
// the colour takes one 3x3 Newton step on the implicit Euler objective
//   G(x) = sum_i m_i/(2h^2)|x_i - y_i|^2 + sum_e V_e Psi(F_e)
// with every other vertex held:
//   H_i = m_i/h^2 I + sum_e V_e d^2Psi_e/dx_i^2,  x_i -= H_i^-1 grad_i G,
// in place: no two vertices of a colour share a tet, so no thread reads what
// another of the same dispatch writes (Gauss-Seidel across colours).
// vbd_colour_contacts.comp (VBD_CONTACTS) adds to G the contact energy of
// the vertex's touching pairs with particles of this range (§14; the
// mass-spring VBD's springs/contact_energy.glsl), reading the other particle
// as Gauss-Seidel reads a neighbour: its iterate when it is of another
// colour, and from a snapshot of the iterate taken before the iteration when
// it is of this one (the same dispatch may be writing it), and the step the
// pairs' lagged friction (contactFriction). G also holds the
// penalty of the vertex's collider half-space for the substep, and the
// vertex step its friction (vbd/vbd_collider.glsl, from
// vbd_collider_planes.comp; zero, never active, without colliders).
#include "shared/kernel.glsl"
#include "vbd/vbd_types.h"

layout(push_constant) uniform Push { VbdPush pc; };
layout(std430, binding = 0) readonly buffer Inertia { vec4 inertia[]; };  // y, w = inverse mass
layout(std430, binding = 1) buffer Iterate { vec4 iterate[]; };
layout(std430, binding = 2) readonly buffer Order { uint vertexOrder[]; };

#define VBD_TOPOLOGY_BINDING 3
#include "vbd/gather.glsl"

vec3 elementPosition(uint j) { return iterate[j].xyz; }

#ifdef VBD_CONTACTS
layout(std430, binding = 7) readonly buffer Start { vec4 start[]; };  // x^0, w = inverse mass
#include "springs/vbd_contact_partner.glsl"
#define VBD_PLANES_BINDING 15
#else
#define VBD_PLANES_BINDING 7
#endif
// Per particle of the range.
layout(std430, binding = VBD_PLANES_BINDING) readonly buffer ColliderPlanes { vec4 colliderPlanes[]; };
layout(std430, binding = VBD_PLANES_BINDING + 1) readonly buffer ColliderFrictions {
    VbdColliderFriction colliderFrictions[];  // beside each plane (vbd_collider_planes.comp)
};
#include "math/coulomb_friction.glsl"
#include "vbd/vbd_collider.glsl"

void main() {
    if (gl_GlobalInvocationID.x >= pc.count) return;
    uint i = vertexOrder[pc.first + gl_GlobalInvocationID.x];
    vec4 x = iterate[i];
    float inverseMass = inertia[i].w;
    if (inverseMass <= 0.0) return;  // pinned
    float h = pc.dt;
    float inertiaWeight = 1.0 / (inverseMass * h * h);
    uint r = i - pc.firstParticle;  // its place in the range
    VbdTetTerms e = vertexElasticTerms(r, i, x.xyz);
    // Both energies' vertex blocks are positive semi-definite for every F
    // (math/elastic_energy.glsl), and so are the collider's k n n^T and its
    // friction's mu lambda f1/|u| (I - n n^T), so H_i >= m/h^2 I needs no
    // eigenvalue clamp; the test only skips a step whose H overflowed to inf
    // or NaN.
    float colliderWeight = kVbdColliderWeight * inertiaWeight;
    VbdColliderTerms collider = vbdColliderTerms(colliderPlanes[r], x.xyz, colliderWeight);
    mat3 hessian = mat3(inertiaWeight) + e.hessian + collider.hessian;
    vec3 gradient = inertiaWeight * (x.xyz - inertia[i].xyz) + e.gradient + collider.gradient;
#ifdef VBD_CONTACTS
    // Its Hessian part is s n n^T, its friction's mu lambda f1/|u|
    // (I - n n^T): H_i stays positive definite.
    ContactEnergy contacts = contactEnergy(i, x.xyz);
    gradient += contacts.gradient;
    hessian += contacts.hessian;
    LaggedFriction pairFriction = contactFriction(i, x.xyz, gradient, hessian);
    gradient += pairFriction.gradient;
    hessian += pairFriction.hessian;
#endif
    // Last: whether it sticks takes the rest of the step's terms.
    VbdColliderFriction f = colliderFrictions[r];
    LaggedFriction friction =
        vbdFrictionTerms(colliderPlanes[r], x.xyz, colliderWeight + inertiaWeight, f.anchor.xyz, f.muStatic,
                         f.muKinetic, kVbdFrictionStickSpeed * h, gradient, hessian);
    gradient += friction.gradient;
    hessian += friction.hessian;
    float det = determinant(hessian);
    if (det > 0.0 && !isinf(det)) iterate[i] = vec4(x.xyz - inverse(hessian) * gradient, x.w);
}
